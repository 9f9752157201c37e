/** Keys the console keeps in localStorage (spec §9 token storage keys, plus the locale). */
export const STORAGE_KEYS = {
  token: 'token',
  /** A one-shot authorization, kept only for the one call it was asked for (spec §7, §9). */
  oneshotToken: 'oneshotToken',
  user: 'user',
  securitySettings: 'securitySettings',
  /** How this browser's session signed in (password, ldap or sso): re-authorization follows it. */
  signInMethod: 'signInMethod',
  locale: 'locale',
  /** 'true' while the sidebar's security and server box is unfolded. */
  sidebarInfoOpen: 'sidebarInfoOpen',
  /** 'true' runs the console against the in-browser mock API (spec §2.5, §9); anything else, the server. */
  useMockData: 'useMockData',
  /** The sessions grid's column choices (Columns panel), per layout; kept per user (see userKey). */
  sessionColumns: 'sessionColumns',
  /** How the replay draws a terminal: 'fit' (whole, its font as small as it must) or 'actual' (readable, panned). */
  playerScale: 'playerScale',
} as const;

/** One of the localStorage keys the console owns. */
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

function store(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Storage can be blocked (privacy modes); the console then keeps state in memory only.
    return undefined;
  }
}

/** Reads a plain string, or null when absent or storage is unavailable. */
export function readString(key: StorageKey): string | null {
  return store()?.getItem(key) ?? null;
}

/** Writes a plain string. */
export function writeString(key: StorageKey, value: string): void {
  store()?.setItem(key, value);
}

/** Reads and parses a JSON value, or null when absent or unreadable. */
export function readJson<T>(key: StorageKey): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Serialises and writes a JSON value. */
export function writeJson(key: StorageKey, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

/**
 * A key kept per signed-in user ("sessionColumns:42"): one browser shared by two administrators
 * gives each their own choices. Read and written with readUserJson and writeUserJson.
 */
function userKey(key: StorageKey, userId: number | string): string {
  return `${key}:${String(userId)}`;
}

/** Reads and parses a user's JSON value, or null when absent, unreadable or storage is unavailable. */
export function readUserJson<T>(key: StorageKey, userId: number | string): T | null {
  const raw = store()?.getItem(userKey(key, userId)) ?? null;
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Serialises and writes a user's JSON value (quietly nothing when storage is full or blocked). */
export function writeUserJson(key: StorageKey, userId: number | string, value: unknown): void {
  try {
    store()?.setItem(userKey(key, userId), JSON.stringify(value));
  } catch {
    // A full or blocked storage keeps the choice for this page only.
  }
}

/** Removes a user's key. */
export function removeUserKey(key: StorageKey, userId: number | string): void {
  store()?.removeItem(userKey(key, userId));
}

/** Removes a key. */
export function removeKey(key: StorageKey): void {
  store()?.removeItem(key);
}

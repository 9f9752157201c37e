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
  /** The sessions grid's column choices, per user email and layout (features/sessions). */
  sessionColumns: 'sessionColumns',
  /** 'true' runs the console against the in-browser mock API (spec §2.5, §9); anything else, the server. */
  useMockData: 'useMockData',
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

/** Removes a key. */
export function removeKey(key: StorageKey): void {
  store()?.removeItem(key);
}

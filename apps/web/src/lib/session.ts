import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { STORAGE_KEYS, readJson, readString, removeKey, writeJson, writeString } from './storage';

/** A role as the API describes it: its name and permissions. */
export type UserRole = ResponseOf<Routes['me']>['user']['roles'][number];

/** The signed-in user as the console stores it (spec §3 Signed-in user, §4 Auth). */
export interface StoredUser {
  /** The user's email, also the sign-in name. */
  email: string;
  /** Equals the email; the authorize dialog prefills from it. */
  username: string;
  /** Display name, when known. */
  name: string | null;
  /** Roles with their permissions. */
  roles: UserRole[];
  /** Union of the roles' permissions. */
  effectivePermissions: string[];
  /** The product's own sign-in method. */
  authType: 'jwt_auth';
  /** Avatar photo, when a provider supplies one. */
  photoURL?: string;
}

/**
 * Why the console signed the user out by itself, for the sign-in screen to say: the token's
 * lifetime ran out here (`expired`), or the server ended the session (`revoked`: token revoked or
 * expired there, user deleted) in its own words.
 */
export type SignOutReason = { kind: 'expired' } | { kind: 'revoked'; message: string | null };

/** What the session store holds. */
export interface SessionState {
  token: string | null;
  user: StoredUser | null;
  /** When this page learned of the token (ms since epoch), for the token-expiry timer. */
  since: number;
  /** Set when the console signed out by itself, until the next sign-in; null otherwise. */
  reason: SignOutReason | null;
}

type Listener = () => void;
const listeners = new Set<Listener>();

let state: SessionState = load();

function load(): SessionState {
  const token = readString(STORAGE_KEYS.token);
  const user = token ? readJson<StoredUser>(STORAGE_KEYS.user) : null;
  return { token: user ? token : null, user, since: Date.now(), reason: null };
}

function emit(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Subscribes to session changes; returns the unsubscribe function. */
export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current session snapshot (stable between changes). */
export function getSession(): SessionState {
  return state;
}

/** The stored token, or null when signed out. */
export function getToken(): string | null {
  return state.token;
}

/** Stores the token and user after a successful sign-in. */
export function signIn(token: string, user: StoredUser): void {
  writeString(STORAGE_KEYS.token, token);
  writeJson(STORAGE_KEYS.user, user);
  emit({ token, user, since: Date.now(), reason: null });
}

/**
 * Replaces the token after a re-authorization answered a new session token (spec §4: with
 * freshness on, a new token replaces the normal one); the expiry timer starts again from now.
 */
export function replaceToken(token: string): void {
  if (!state.user) return;
  writeString(STORAGE_KEYS.token, token);
  emit({ ...state, token, since: Date.now() });
}

/** Merges fresh details (roles, permissions, name) into the stored user. */
export function updateUser(patch: Partial<StoredUser>): void {
  if (!state.user) return;
  const user = { ...state.user, ...patch };
  writeJson(STORAGE_KEYS.user, user);
  emit({ ...state, user });
}

/**
 * Clears token, user and security settings (sign-out, expiry or a 401). With a reason (the console
 * signing out by itself) the sign-in screen says why; a user who was already signed out keeps
 * the reason they were given first.
 */
export function signOut(reason?: SignOutReason): void {
  removeKey(STORAGE_KEYS.token);
  removeKey(STORAGE_KEYS.user);
  removeKey(STORAGE_KEYS.securitySettings);
  removeKey(STORAGE_KEYS.oneshotToken);
  removeKey(STORAGE_KEYS.signInMethod);
  if (state.token === null && state.user === null) return;
  emit({ token: null, user: null, since: Date.now(), reason: reason ?? null });
}

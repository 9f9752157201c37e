import type { BodyOf, ResponseOf, RouteContract, RouteName, Routes } from '@gatehouse/contracts';
import { TOKEN_HEADER, TOKEN_HEADER_ALT } from '@gatehouse/contracts';
import { ApiError, asErrorBody } from './api-error';
import type { RouteRef } from './api-routes';
import type { ReauthReason, RetryCredential } from './reauth';
import { canAuthorize, isListedForSingleUse, obtainAuthorization, savedLimitSettings } from './reauth';
import { getToken, signOut } from './session';
import { requireEnrolment } from './two-factor-gate';
import { STORAGE_KEYS, removeKey, writeString } from './storage';

/** Options of one API call. */
export interface CallOptions<R extends RouteContract> {
  /** JSON body, typed by the route's contract. */
  body?: BodyOf<R>;
  /** Query values; an empty string is sent as a bare key (`?include_auth_token`). */
  query?: Record<string, string | undefined>;
  /** Values for `{name}` placeholders in the path. */
  params?: Record<string, string>;
  /** False for calls made while signing in, where a 401 means wrong credentials. */
  signOutOn401?: boolean;
  /** Extra request headers some calls need, such as host-id on terminating a session. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** False for the authorize call itself: a 401 asking for authorization then fails the call at once. */
  reauth?: boolean;
  /** A token other than the stored session's: the sign-in waiting for its second factor. */
  token?: string;
}

/**
 * Turns a contract path into a URL relative to the page: '/api/login' becomes 'api/login',
 * so the console works under any origin and any base path.
 */
export function buildUrl(
  path: string,
  params?: Record<string, string>,
  query?: CallOptions<RouteContract>['query'],
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const parts = Object.entries(query ?? {})
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) =>
      value === '' ? encodeURIComponent(key) : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
    );
  const relative = filled.replace(/^\/+/, '');
  return parts.length > 0 ? `${relative}?${parts.join('&')}` : relative;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

interface Sent {
  response: Response;
  body: unknown;
  /** The session token the call carried (the retry compares it with the stored one). */
  token: string | null;
}

/** Sends the call once: with the one-shot token when given, else the stored session token. */
async function send(route: RouteRef<RouteName>, options: CallOptions<RouteContract>, oneshot?: string): Promise<Sent> {
  const token = options.token ?? getToken();
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers[TOKEN_HEADER_ALT] = token;
  const authentication = oneshot ?? token;
  if (authentication) headers[TOKEN_HEADER] = authentication;
  const init: RequestInit = { method: route.method, headers, credentials: 'same-origin' };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const response = await fetch(buildUrl(route.path, options.params, options.query), init);
  return { response, body: await readBody(response), token };
}

/**
 * Sends a call with a one-shot authorization. The token is kept under the spec's storage key
 * (oneshotToken) only while this one call is under way, then removed: it works exactly once.
 */
async function sendOnce(route: RouteRef<RouteName>, options: CallOptions<RouteContract>, oneshot: string) {
  writeString(STORAGE_KEYS.oneshotToken, oneshot);
  try {
    return await send(route, options, oneshot);
  } finally {
    removeKey(STORAGE_KEYS.oneshotToken);
  }
}

/** The re-authorization a refused call asks for, if any (a 401 whose body names `reauth`). */
function reauthOf(sent: Sent): ReauthReason | undefined {
  return sent.response.status === 401 ? asErrorBody(sent.body)?.reauth : undefined;
}

/** Sends the call again after the Authorize dialog, with whatever the authorization answered. */
async function retry(
  route: RouteRef<RouteName>,
  options: CallOptions<RouteContract>,
  credential: RetryCredential,
): Promise<Sent> {
  return credential.kind === 'oneshot' ? sendOnce(route, options, credential.token) : send(route, options);
}

/**
 * Calls one route of the contract and returns its typed answer. Sends the stored token in both
 * token headers; a non-2xx answer throws ApiError, and a 401 on a signed-in call signs out.
 *
 * Re-authorization (spec §2.6, §4, §7): a call that single-use limiting lists (by the saved
 * security settings) asks for a one-shot authorization before it is sent; a call answered 401
 * with `reauth` opens the Authorize dialog and is sent once more. A one-shot token goes in
 * Authentication-Token for that one call; a session token replaces the stored one. Cancelling
 * rejects the call with AuthorizationCancelledError.
 */
export async function apiCall<K extends RouteName>(
  route: RouteRef<K>,
  options: CallOptions<Routes[K]> = {},
): Promise<ResponseOf<Routes[K]>> {
  const ref = route as RouteRef<RouteName>;
  const opts = options as CallOptions<RouteContract>;
  const reauth = options.reauth !== false && canAuthorize();
  let sent: Sent;
  let usedOneShot = false;
  const path = `/${buildUrl(route.path, options.params)}`;
  if (reauth && getToken() && isListedForSingleUse(savedLimitSettings(), route.method, path)) {
    const credential = await obtainAuthorization({ reason: 'single-use', after401: false }, getToken());
    usedOneShot = credential.kind === 'oneshot';
    sent = await retry(ref, opts, credential);
  } else {
    sent = await send(ref, opts);
  }
  const reason = reauthOf(sent);
  if (reason && reauth) {
    const credential = await obtainAuthorization({ reason, after401: true }, sent.token);
    usedOneShot = credential.kind === 'oneshot';
    sent = await retry(ref, opts, credential);
  }
  const { response, body } = sent;
  // A role requires a second factor not set up yet: the console goes to the enrolment page.
  if (response.status === 403 && asErrorBody(body)?.two_factor === 'enrol') requireEnrolment();
  if (!response.ok) {
    // A refused one-shot token or a call asking for authorization says nothing about the session.
    const sessionRefused = response.status === 401 && !usedOneShot && reauthOf(sent) === undefined;
    if (sessionRefused && sent.token && options.signOutOn401 !== false) {
      // The server's words (expired, signed out elsewhere, user deleted) go to the sign-in screen.
      const message = asErrorBody(body)?.message;
      signOut(message ? { kind: 'revoked', message } : undefined);
    }
    throw new ApiError(response.status, asErrorBody(body));
  }
  return body as ResponseOf<Routes[K]>;
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { ApiError } from './api-error';
import { getToken, replaceToken } from './session';
import { STORAGE_KEYS, readJson } from './storage';

/** Why the server wants the user to confirm who they are (the `reauth` of a 401 body). */
export type ReauthReason = 'single-use' | 'freshness';

/** What POST api/auth/authorize answers: a one-shot token, or a new session token. */
export type Authorization = ResponseOf<Routes['authorize']>;

/** What the Authorize dialog is asked. */
export interface AuthorizationRequest {
  reason: ReauthReason;
  /** The server refused the call first (the dialog then says 'Authorization needed'). */
  after401: boolean;
}

/**
 * Asks the user to authorize (spec §2.6) and answers POST api/auth/authorize's result; rejects
 * with AuthorizationCancelledError when the user cancels. The Authorize dialog registers one.
 */
export type Authorizer = (request: AuthorizationRequest) => Promise<Authorization>;

/** The user cancelled the Authorize dialog: the call was not made. A 4xx, so queries do not retry it. */
export class AuthorizationCancelledError extends ApiError {
  constructor(message: string) {
    super(401, { statusCode: 401, error: 'Unauthorized', message });
    this.name = 'AuthorizationCancelledError';
  }
}

/** How the retried call authenticates: with a one-shot token for it alone, or with the stored (new) session token. */
export type RetryCredential = { kind: 'oneshot'; token: string } | { kind: 'session' };

let authorizer: Authorizer | null = null;
// One prompt at a time: calls refused together wait their turn instead of stacking dialogs.
let queue: Promise<unknown> = Promise.resolve();

/** Installs the function that prompts the user; returns the function that removes it. */
export function registerAuthorizer(prompt: Authorizer): () => void {
  authorizer = prompt;
  return () => {
    if (authorizer === prompt) authorizer = null;
  };
}

/** True when a prompt can be shown (the Authorize dialog is mounted). */
export function canAuthorize(): boolean {
  return authorizer !== null;
}

/**
 * Prompts for an authorization for one call that was sent with `sentToken`. A session token
 * answered replaces the stored one. When another call's prompt already replaced the token
 * this call was sent with, the call simply retries with the new one (no second prompt).
 */
export function obtainAuthorization(request: AuthorizationRequest, sentToken: string | null): Promise<RetryCredential> {
  const turn = queue.then(async (): Promise<RetryCredential> => {
    const current = getToken();
    if (request.reason === 'freshness' && current !== null && current !== sentToken) return { kind: 'session' };
    // Issue 8 adds the single sign-on popup (spec §2.8) for SAML and OIDC users here.
    if (!authorizer) throw new Error('No Authorize dialog is mounted');
    const answer = await authorizer(request);
    if (answer.kind === 'session') {
      replaceToken(answer.token);
      return { kind: 'session' };
    }
    return { kind: 'oneshot', token: answer.token };
  });
  queue = turn.catch(() => undefined);
  return turn;
}

/** The security settings fields the client reads to know a call is listed (spec §3). */
interface LimitSettings {
  api_limit_single_use: boolean;
  api_limit_endpoints: readonly { method: string; path: string }[];
}

/**
 * True when single-use limiting lists this call, so it needs a one-shot token before it is sent
 * (spec §4, §7). Same rule as the server: the method (or *) and the regular expression over the
 * path; a pattern that does not compile limits nothing.
 */
export function isListedForSingleUse(settings: LimitSettings | null, method: string, path: string): boolean {
  if (!settings?.api_limit_single_use) return false;
  return settings.api_limit_endpoints.some((endpoint) => {
    const wanted = endpoint.method.toUpperCase();
    if (wanted !== '*' && wanted !== method.toUpperCase()) return false;
    try {
      return new RegExp(endpoint.path).test(path);
    } catch {
      return false;
    }
  });
}

/** The security settings saved at the last GET api/security (spec §7.2), or null. */
export function savedLimitSettings(): LimitSettings | null {
  return readJson<LimitSettings>(STORAGE_KEYS.securitySettings);
}

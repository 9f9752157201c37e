import type { ResponseOf, Routes, SecondFactorMethod } from '@gatehouse/contracts';
import { ApiError } from './api-error';
import { i18next } from './i18n';
import { getSession, getToken, replaceToken, subscribeSession } from './session';
import { STORAGE_KEYS, readJson, readString, writeString } from './storage';

/** Why the server wants the user to confirm who they are (the `reauth` of a 401 body). */
export type ReauthReason = 'single-use' | 'freshness';

/** What POST api/auth/authorize answers: a one-shot token, or a new session token. */
export type Authorization = ResponseOf<Routes['authorize']>;

/** What the Authorize dialog is asked. */
export interface AuthorizationRequest {
  reason: ReauthReason;
  /** The server refused the call first (the dialog then says 'Authorization needed'). */
  after401: boolean;
  /**
   * A single sign-on in the popup succeeded and the account has a second factor (issue 20): the
   * dialog asks only for it, and sends it with this step to POST /sso/second-factor.
   */
  ssoStep?: SsoSecondFactorStep;
}

/** The second step of a single sign-on re-authorization, as the popup hands it over. */
export interface SsoSecondFactorStep {
  step: string;
  methods: SecondFactorMethod[];
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
const requestListeners = new Set<(request: AuthorizationRequest) => void>();

/**
 * How this browser's session signed in. It decides how the user re-authorizes: a password or
 * directory session in the Authorize dialog, a single sign-on session in the popup (spec §4).
 * By session rather than by the configured provider, so an administrator who signed in with a
 * password (break-glass) while SAML or OIDC is configured still gets the dialog.
 */
export type SignInMethod = 'password' | 'ldap' | 'sso';

/** Records how the session that is being stored signed in. */
export function rememberSignInMethod(method: SignInMethod): void {
  writeString(STORAGE_KEYS.signInMethod, method);
}

/** How the stored session signed in, or null when unknown (sessions from before it was recorded). */
export function signInMethod(): SignInMethod | null {
  const value = readString(STORAGE_KEYS.signInMethod);
  return value === 'password' || value === 'ldap' || value === 'sso' ? value : null;
}

/** Calls the listener each time the user is asked to authorize (dialog or popup); returns the unsubscribe. */
export function onAuthorizationRequest(listener: (request: AuthorizationRequest) => void): () => void {
  requestListeners.add(listener);
  return () => requestListeners.delete(listener);
}

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
 * Prompts for an authorization for one call that was sent with `sentToken`: the Authorize dialog,
 * or for a single sign-on session the popup (spec §4). A session token answered replaces the stored one. When another call's prompt already replaced the token
 * this call was sent with, the call simply retries with the new one (no second prompt).
 */
export function obtainAuthorization(request: AuthorizationRequest, sentToken: string | null): Promise<RetryCredential> {
  const turn = queue.then(async (): Promise<RetryCredential> => {
    const current = getToken();
    if (request.reason === 'freshness' && current !== null && current !== sentToken) return { kind: 'session' };
    for (const listener of requestListeners) listener(request);
    let answer: Authorization;
    if (signInMethod() === 'sso') {
      const popup = await authorizeInPopup();
      // Someone with a second factor proves it in the Authorize dialog after the identity provider.
      if ('step' in popup) {
        if (!authorizer) throw new Error('No Authorize dialog is mounted');
        answer = await authorizer({ ...request, ssoStep: popup });
      } else answer = popup;
    } else {
      if (!authorizer) throw new Error('No Authorize dialog is mounted');
      answer = await authorizer(request);
    }
    if (answer.kind === 'session') {
      replaceToken(answer.token);
      return { kind: 'session' };
    }
    return { kind: 'oneshot', token: answer.token };
  });
  queue = turn.catch(() => undefined);
  return turn;
}

/** Size of the single sign-on popup, and how often its closing is checked (spec §2.8). */
export const POPUP_SIZE = 500;
export const POPUP_POLL_MS = 250;

/** What the /sso screen in the popup posts to the console window that opened it. */
export type PopupMessage =
  | { type: 'newAuthToken'; token: string; kind: Authorization['kind']; expires_at: string }
  | ({ type: 'secondFactor' } & SsoSecondFactorStep)
  | { type: 'ssoError'; message: string };

const METHODS: readonly string[] = ['totp', 'passkey', 'recovery-code'] satisfies SecondFactorMethod[];

/** True for a well-formed message of the single sign-on popup (spec §4: newAuthToken). */
export function isPopupMessage(data: unknown): data is PopupMessage {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Record<string, unknown>;
  if (message.type === 'ssoError') return typeof message.message === 'string';
  if (message.type === 'secondFactor')
    return (
      typeof message.step === 'string' &&
      message.step !== '' &&
      Array.isArray(message.methods) &&
      message.methods.every((m) => typeof m === 'string' && METHODS.includes(m))
    );
  return (
    message.type === 'newAuthToken' &&
    typeof message.token === 'string' &&
    message.token !== '' &&
    (message.kind === 'oneshot' || message.kind === 'session') &&
    typeof message.expires_at === 'string'
  );
}

/** The popup's address: this console's /ssoauth screen, which starts the flow (any base path). */
function popupUrl(): string {
  return `${window.location.origin}${window.location.pathname}#/ssoauth?purpose=authorize`;
}

/** Window features of a 500x500 popup centred over the console window. */
function popupFeatures(): string {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_SIZE) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_SIZE) / 2));
  return `popup=yes,width=${POPUP_SIZE},height=${POPUP_SIZE},left=${left},top=${top}`;
}

/**
 * Re-authorizes a single sign-on session in a popup (spec §2.8, §4): /ssoauth starts the flow at
 * the identity provider, and the /sso screen there posts the token back, or for an account with a
 * second factor the step that proves it next (issue 20). The window is opened
 * before anything is awaited, so the click that led here still counts for the popup blocker.
 * Only messages from this console's own origin are accepted. Rejects with
 * AuthorizationCancelledError when the popup is blocked, closed without an answer, reports a
 * failure, or the user signs out meanwhile.
 */
export function authorizeInPopup(): Promise<Authorization | SsoSecondFactorStep> {
  const popup = window.open(popupUrl(), 'gatehouse-sso-authorize', popupFeatures());
  if (!popup) return Promise.reject(new AuthorizationCancelledError(i18next.t('singleSignOn.popupBlocked')));
  return new Promise<Authorization | SsoSecondFactorStep>((resolve, reject) => {
    let closedSeen = false;
    const stop = () => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(timer);
      unsubscribe();
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isPopupMessage(event.data)) return;
      stop();
      const data = event.data;
      // A failure stays on screen in the popup, which the user closes after reading it.
      if (data.type === 'ssoError') {
        reject(new AuthorizationCancelledError(data.message));
        return;
      }
      if (!popup.closed) popup.close();
      if (data.type === 'secondFactor') resolve({ step: data.step, methods: data.methods });
      else resolve({ token: data.token, kind: data.kind, expires_at: data.expires_at });
    };
    const timer = window.setInterval(() => {
      if (!popup.closed) return;
      // The popup posts and then closes itself: give a message already on its way one more tick.
      if (closedSeen) {
        stop();
        reject(new AuthorizationCancelledError(i18next.t('singleSignOn.popupClosed')));
      }
      closedSeen = true;
    }, POPUP_POLL_MS);
    const unsubscribe = subscribeSession(() => {
      if (getSession().user) return;
      stop();
      if (!popup.closed) popup.close();
      reject(new AuthorizationCancelledError(i18next.t('authorize.cancelled')));
    });
    window.addEventListener('message', onMessage);
  });
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

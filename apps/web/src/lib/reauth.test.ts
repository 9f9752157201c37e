// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiCall } from './api-client';
import { API } from './api-routes';
import type { Authorization, AuthorizationRequest } from './reauth';
import {
  AuthorizationCancelledError,
  authorizeInPopup,
  isListedForSingleUse,
  registerAuthorizer,
  rememberSignInMethod,
} from './reauth';
import { getToken, signIn, signOut } from './session';
import { STORAGE_KEYS, writeJson } from './storage';

/** One request as the fake server saw it. */
interface Seen {
  method: string;
  url: string;
  token: string | undefined;
  altToken: string | undefined;
  oneshotStored: string | null;
}

type Reply = [status: number, body: unknown];

/** A fake server answering each request with the next reply of its queue (by "METHOD url"). */
function fakeServer(replies: Record<string, Reply[]>): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      const method = init.method ?? 'GET';
      seen.push({
        method,
        url,
        token: headers['authentication-token'],
        altToken: headers['x-auth-token'],
        oneshotStored: localStorage.getItem('oneshotToken'),
      });
      const [status, body] = replies[`${method} ${url}`]?.shift() ?? [404, { message: 'Not found' }];
      return Promise.resolve(new Response(JSON.stringify(body), { status }));
    }),
  );
  return seen;
}

const USER = {
  email: 'ada@example.test',
  username: 'ada@example.test',
  name: null,
  roles: [],
  effectivePermissions: [],
  authType: 'jwt_auth' as const,
};
const REAUTH_SINGLE_USE: Reply = [
  401,
  { statusCode: 401, error: 'Unauthorized', message: 'Authorization needed', reauth: 'single-use' },
];
const REAUTH_FRESHNESS: Reply = [
  401,
  { statusCode: 401, error: 'Unauthorized', message: 'Authorization needed', reauth: 'freshness' },
];
const OK: Reply = [200, { message: 'Configuration saved.' }];

/** Registers a fake Authorize dialog that answers the given authorizations in turn. */
function dialogAnswering(...answers: (Authorization | 'cancel')[]) {
  const asked: AuthorizationRequest[] = [];
  const unregister = registerAuthorizer((request) => {
    asked.push(request);
    const answer = answers.shift();
    if (!answer) throw new Error('the dialog was opened more often than expected');
    return answer === 'cancel'
      ? Promise.reject(new AuthorizationCancelledError('Authorization cancelled: the call was not made.'))
      : Promise.resolve(answer);
  });
  return { asked, unregister };
}

const oneshot = (token: string): Authorization => ({ token, kind: 'oneshot', expires_at: '2030-01-01T00:00:00Z' });
const session = (token: string): Authorization => ({ token, kind: 'session', expires_at: '2030-01-01T00:00:00Z' });

let unregister: (() => void) | undefined;

beforeEach(() => {
  localStorage.clear();
  signIn('normal-token', USER);
});

afterEach(() => {
  unregister?.();
  unregister = undefined;
  vi.unstubAllGlobals();
  signOut();
});

describe('re-authorization in the API client', () => {
  it('opens the dialog on a 401 under single-use and retries once with the one-shot token', async () => {
    const seen = fakeServer({ 'POST api/user': [REAUTH_SINGLE_USE, [201, { email: 'bo@example.test' }]] });
    const dialog = dialogAnswering(oneshot('one-shot-1'));
    unregister = dialog.unregister;

    const answer = await apiCall(API.createUser, { body: { email: 'bo@example.test', password: 'long-enough-1' } });

    expect(answer).toEqual({ email: 'bo@example.test' });
    expect(dialog.asked).toEqual([{ reason: 'single-use', after401: true }]);
    expect(seen.map((s) => s.token)).toEqual(['normal-token', 'one-shot-1']);
    // The one-shot token is stored under oneshotToken for that call only, then removed.
    expect(seen[1]?.oneshotStored).toBe('one-shot-1');
    expect(localStorage.getItem('oneshotToken')).toBeNull();
    // The session is untouched: the normal token stays and goes along as x-auth-token.
    expect(seen[1]?.altToken).toBe('normal-token');
    expect(getToken()).toBe('normal-token');
  });

  it('replaces the stored token when the authorization answers a session token', async () => {
    const seen = fakeServer({ 'POST api/security': [REAUTH_FRESHNESS, OK] });
    const dialog = dialogAnswering(session('fresh-token'));
    unregister = dialog.unregister;

    await apiCall(API.saveSecurity, { body: { api_limit_freshness: true } });

    expect(dialog.asked).toEqual([{ reason: 'freshness', after401: true }]);
    expect(seen.map((s) => s.token)).toEqual(['normal-token', 'fresh-token']);
    expect(getToken()).toBe('fresh-token');
    expect(localStorage.getItem('token')).toBe('fresh-token');
    expect(localStorage.getItem('oneshotToken')).toBeNull();
  });

  it('rejects the call with a clear error when the dialog is cancelled, and keeps the session', async () => {
    const seen = fakeServer({ 'DELETE api/user/bo%40example.test': [REAUTH_SINGLE_USE] });
    unregister = dialogAnswering('cancel').unregister;

    const call = apiCall(API.deleteUser, { params: { email: 'bo@example.test' } });

    await expect(call).rejects.toBeInstanceOf(AuthorizationCancelledError);
    await expect(call).rejects.toMatchObject({
      status: 401,
      message: 'Authorization cancelled: the call was not made.',
    });
    expect(seen).toHaveLength(1);
    expect(getToken()).toBe('normal-token');
  });

  it('asks before sending a call the saved settings list for single-use, so it runs only once authorized', async () => {
    writeJson(STORAGE_KEYS.securitySettings, {
      api_limit_single_use: true,
      api_limit_freshness: false,
      api_limit_endpoints: [{ method: 'DELETE', path: '^/api/user/' }],
      effectiveTokenMaxAge: 3600,
    });
    const seen = fakeServer({ 'DELETE api/user/bo%40example.test': [[200, { message: 'User Deleted' }]] });
    const dialog = dialogAnswering(oneshot('one-shot-2'));
    unregister = dialog.unregister;

    await apiCall(API.deleteUser, { params: { email: 'bo@example.test' } });

    expect(dialog.asked).toEqual([{ reason: 'single-use', after401: false }]);
    expect(seen.map((s) => s.token)).toEqual(['one-shot-2']);
  });

  it('retries only once: a second refusal fails the call without signing out', async () => {
    const seen = fakeServer({
      'POST api/user': [
        REAUTH_SINGLE_USE,
        [
          401,
          { statusCode: 401, error: 'Unauthorized', message: 'This authorization was used already: authorize again.' },
        ],
      ],
    });
    const dialog = dialogAnswering(oneshot('one-shot-3'));
    unregister = dialog.unregister;

    await expect(
      apiCall(API.createUser, { body: { email: 'c@example.test', password: 'long-enough-1' } }),
    ).rejects.toThrow('This authorization was used already: authorize again.');
    expect(seen).toHaveLength(2);
    expect(dialog.asked).toHaveLength(1);
    expect(getToken()).toBe('normal-token');
  });

  it('prompts once for calls refused together under freshness: the others retry with the new token', async () => {
    const seen = fakeServer({
      'GET api/settings': [REAUTH_FRESHNESS, [200, { allow_signup: false }]],
      'GET api/license': [REAUTH_FRESHNESS, [200, { status: 'missing' }]],
    });
    const dialog = dialogAnswering(session('fresh-token'));
    unregister = dialog.unregister;

    await Promise.all([apiCall(API.getSettings), apiCall(API.getLicense)]);

    expect(dialog.asked).toHaveLength(1);
    expect(seen.filter((s) => s.token === 'fresh-token')).toHaveLength(2);
  });

  it('without a dialog a 401 asking for authorization fails the call and does not sign out', async () => {
    fakeServer({ 'POST api/user': [REAUTH_SINGLE_USE] });
    await expect(
      apiCall(API.createUser, { body: { email: 'd@example.test', password: 'long-enough-1' } }),
    ).rejects.toMatchObject({
      status: 401,
      body: { reauth: 'single-use' },
    });
    expect(getToken()).toBe('normal-token');
  });

  it('still signs out on a plain 401 (the session expired)', async () => {
    fakeServer({ 'GET api/settings': [[401, { statusCode: 401, error: 'Unauthorized', message: 'Sign in again.' }]] });
    unregister = dialogAnswering().unregister;
    await expect(apiCall(API.getSettings)).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
  });
});

/** A stand-in for the popup window: it can be closed by the user or by the page. */
interface FakePopup {
  closed: boolean;
  close: () => void;
}

/** Makes window.open answer a fake popup (or null: blocked); returns the popup and the open spy. */
function fakePopup(blocked = false) {
  const popup: FakePopup = {
    closed: false,
    close: vi.fn(() => {
      popup.closed = true;
    }),
  };
  const open = vi.fn(() => (blocked ? null : popup));
  vi.stubGlobal('open', open);
  return { popup, open };
}

/** What the /sso screen in the popup posts, as the console window receives it. */
function postFromPopup(origin: string, data: unknown): void {
  window.dispatchEvent(new MessageEvent('message', { origin, data }));
}

const ORIGIN = 'http://localhost:3000';
const tokenMessage = (token: string, kind: 'oneshot' | 'session') => ({
  type: 'newAuthToken',
  token,
  kind,
  expires_at: '2030-01-01T00:02:00Z',
});

/** True once the promise has settled (after the pending microtasks ran). */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

describe('re-authorization of a single sign-on session in the popup', () => {
  beforeEach(() => rememberSignInMethod('sso'));

  it('opens a 500x500 popup on /ssoauth instead of the dialog, and retries with the token posted from this origin only', async () => {
    const seen = fakeServer({ 'POST api/user': [REAUTH_SINGLE_USE, [201, { email: 'bo@example.test' }]] });
    const dialog = dialogAnswering();
    unregister = dialog.unregister;
    const { popup, open } = fakePopup();

    const call = apiCall(API.createUser, { body: { email: 'bo@example.test', password: 'long-enough-1' } });
    await vi.waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    const [url, name, features] = open.mock.calls[0] as unknown as [string, string, string];
    expect(url).toBe(`${ORIGIN}/#/ssoauth?purpose=authorize`);
    expect(name).toBe('gatehouse-sso-authorize');
    expect(features).toMatch(/width=500,height=500/);

    // Another site posting a token is ignored, and so is a message of another shape from this origin.
    postFromPopup('https://evil.example.test', tokenMessage('evil-token', 'oneshot'));
    postFromPopup(ORIGIN, { type: 'newAuthToken', token: 'no-kind' });
    expect(await hasSettled(call)).toBe(false);

    postFromPopup(ORIGIN, tokenMessage('sso-one-shot', 'oneshot'));
    await expect(call).resolves.toEqual({ email: 'bo@example.test' });
    expect(seen.map((s) => s.token)).toEqual(['normal-token', 'sso-one-shot']);
    expect(dialog.asked).toEqual([]);
    expect(popup.close).toHaveBeenCalled();
    expect(getToken()).toBe('normal-token');
  });

  it('uses a session token from the popup as the new stored token', async () => {
    const seen = fakeServer({ 'POST api/security': [REAUTH_FRESHNESS, OK] });
    unregister = dialogAnswering().unregister;
    const { open } = fakePopup();

    const call = apiCall(API.saveSecurity, { body: { api_limit_freshness: true } });
    await vi.waitFor(() => expect(open).toHaveBeenCalled());
    postFromPopup(ORIGIN, tokenMessage('sso-fresh', 'session'));

    await call;
    expect(seen.map((s) => s.token)).toEqual(['normal-token', 'sso-fresh']);
    expect(localStorage.getItem('token')).toBe('sso-fresh');
  });

  it('asks the Authorize dialog for the second factor after the popup, with the step the popup posted', async () => {
    const seen = fakeServer({ 'POST api/user': [REAUTH_SINGLE_USE, [201, { email: 'g@example.test' }]] });
    const dialog = dialogAnswering(oneshot('after-code'));
    unregister = dialog.unregister;
    const { popup, open } = fakePopup();

    const call = apiCall(API.createUser, { body: { email: 'g@example.test', password: 'long-enough-1' } });
    await vi.waitFor(() => expect(open).toHaveBeenCalled());
    // A step with a method the console does not know is ignored.
    postFromPopup(ORIGIN, { type: 'secondFactor', step: 'step-1', methods: ['sms'] });
    expect(await hasSettled(call)).toBe(false);
    postFromPopup(ORIGIN, { type: 'secondFactor', step: 'step-1', methods: ['totp', 'recovery-code'] });

    await expect(call).resolves.toEqual({ email: 'g@example.test' });
    expect(popup.close).toHaveBeenCalled();
    expect(dialog.asked).toEqual([
      { reason: 'single-use', after401: true, ssoStep: { step: 'step-1', methods: ['totp', 'recovery-code'] } },
    ]);
    expect(seen.map((s) => s.token)).toEqual(['normal-token', 'after-code']);
  });

  it('rejects the call, unsent, when the popup is blocked', async () => {
    const seen = fakeServer({ 'POST api/user': [REAUTH_SINGLE_USE] });
    unregister = dialogAnswering().unregister;
    fakePopup(true);

    const call = apiCall(API.createUser, { body: { email: 'e@example.test', password: 'long-enough-1' } });

    await expect(call).rejects.toBeInstanceOf(AuthorizationCancelledError);
    await expect(call).rejects.toThrow('Allow pop-ups for this site to authorize');
    expect(seen).toHaveLength(1);
    expect(getToken()).toBe('normal-token');
  });

  it('rejects when the popup is closed without an answer', async () => {
    vi.useFakeTimers();
    try {
      const { popup } = fakePopup();
      const answer = authorizeInPopup();
      answer.catch(() => undefined);
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(600);
      await expect(answer).rejects.toBeInstanceOf(AuthorizationCancelledError);
      await expect(answer).rejects.toThrow('Authorization cancelled: the single sign-on window was closed.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('still takes the token the popup posted just before closing itself', async () => {
    vi.useFakeTimers();
    try {
      const { popup } = fakePopup();
      const answer = authorizeInPopup();
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(250);
      postFromPopup(ORIGIN, tokenMessage('late-token', 'oneshot'));
      await expect(answer).resolves.toEqual({
        token: 'late-token',
        kind: 'oneshot',
        expires_at: '2030-01-01T00:02:00Z',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects with the reason the popup reports, leaving it open to read', async () => {
    const { popup } = fakePopup();
    const answer = authorizeInPopup();
    postFromPopup(ORIGIN, { type: 'ssoError', message: 'You signed in at the identity provider as bo@example.test.' });
    await expect(answer).rejects.toThrow('You signed in at the identity provider as bo@example.test.');
    expect(popup.close).not.toHaveBeenCalled();
  });

  it('closes the popup and rejects when the user signs out meanwhile', async () => {
    const { popup } = fakePopup();
    const answer = authorizeInPopup();
    signOut();
    await expect(answer).rejects.toBeInstanceOf(AuthorizationCancelledError);
    expect(popup.close).toHaveBeenCalled();
  });

  it('keeps the Authorize dialog for directory and password sessions', async () => {
    rememberSignInMethod('ldap');
    fakeServer({ 'POST api/user': [REAUTH_SINGLE_USE, [201, { email: 'f@example.test' }]] });
    const dialog = dialogAnswering(oneshot('dialog-one-shot'));
    unregister = dialog.unregister;
    const { open } = fakePopup();

    await apiCall(API.createUser, { body: { email: 'f@example.test', password: 'long-enough-1' } });

    expect(dialog.asked).toHaveLength(1);
    expect(open).not.toHaveBeenCalled();
  });
});

describe('isListedForSingleUse', () => {
  const settings = {
    api_limit_single_use: true,
    api_limit_endpoints: [
      { method: 'post', path: '^/api/user$' },
      { method: '*', path: '^/api/apikey' },
      { method: 'GET', path: '([' },
    ],
  };

  it('matches the method (any case, or *) and the regular expression over the path', () => {
    expect(isListedForSingleUse(settings, 'POST', '/api/user')).toBe(true);
    expect(isListedForSingleUse(settings, 'GET', '/api/user')).toBe(false);
    expect(isListedForSingleUse(settings, 'POST', '/api/user/me')).toBe(false);
    expect(isListedForSingleUse(settings, 'DELETE', '/api/apikey/k1')).toBe(true);
  });

  it('lists nothing when single-use is off, nothing is saved, or a pattern does not compile', () => {
    expect(isListedForSingleUse({ ...settings, api_limit_single_use: false }, 'POST', '/api/user')).toBe(false);
    expect(isListedForSingleUse(null, 'POST', '/api/user')).toBe(false);
    expect(isListedForSingleUse(settings, 'GET', '/api/other')).toBe(false);
  });
});

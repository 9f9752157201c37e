// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { getSession, getToken, signIn, signOut } from '../../../lib/session';
import { SsoPage } from './sso-page';

type Answer = [status: number, body: unknown];

interface Seen {
  method: string;
  url: string;
  body: unknown;
  token: string | undefined;
}

/** Replaces fetch: "METHOD url" to an answer; anything else answers 404. */
function fakeServer(answers: Record<string, Answer>): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      seen.push({
        method,
        url,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        token: (init?.headers as Record<string, string> | undefined)?.['authentication-token'],
      });
      const [status, body] = answers[`${method} ${url}`] ?? [404, { message: 'Not found' }];
      return Promise.resolve(new Response(JSON.stringify(body), { status }));
    }),
  );
  return seen;
}

const USER = {
  authentication_token: 'sso-token-1',
  email: 'ada@example.test',
  name: 'Ada Lovelace',
  roles: [{ name: 'auditor', permissions: ['list-recording'] }],
  effectivePermissions: ['list-recording'],
  expires_at: '2030-01-01T00:00:00Z',
};
const STORED_USER = {
  email: 'ada@example.test',
  username: 'ada@example.test',
  name: 'Ada Lovelace',
  roles: [],
  effectivePermissions: [],
  authType: 'jwt_auth' as const,
};

/** Renders /sso (or another entry) in strict mode, as main.tsx does, with a start page at /. */
function renderAt(entry: string) {
  const client = new QueryClient();
  const ui = (remount: number) => (
    <StrictMode>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/sso" element={<SsoPage key={remount} />} />
            <Route path="/ssoauth" element={<SsoPage />} />
            <Route path="/signin" element={<p>sign-in page</p>} />
            <Route path="/" element={<p>start page</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>
  );
  const view = render(ui(0));
  // A new key mounts the page afresh, as the layout's switch on sign-in does.
  return { remount: () => view.rerender(ui(1)) };
}

/** Makes this window a popup opened by a window of the given origin; returns its postMessage spy. */
function openedBy(origin: string) {
  const postMessage = vi.fn();
  Object.defineProperty(window, 'opener', {
    value: { location: { origin }, postMessage },
    configurable: true,
    writable: true,
  });
  return postMessage;
}

beforeEach(() => localStorage.clear());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Object.defineProperty(window, 'opener', { value: null, configurable: true, writable: true });
  signOut();
});

describe('SsoPage', () => {
  it('shows the server’s error from ?error= with a way back to sign-in, and fetches nothing', async () => {
    const seen = fakeServer({});
    renderAt(`/sso?error=${encodeURIComponent('The assertion was used before.')}`);
    expect(await screen.findByText('The assertion was used before.')).toBeTruthy();
    expect(screen.getByText('Single sign-on did not complete')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/signin');
    expect(seen).toEqual([]);
  });

  it('fetches the token once, signs in as a password sign-in would, and opens the start page', async () => {
    const seen = fakeServer({
      'GET sso/token': [200, { purpose: 'signin', kind: 'session', response: { user: USER } }],
    });
    renderAt('/sso');

    expect(await screen.findByText('start page')).toBeTruthy();
    // Strict mode runs effects twice: the token, which the server answers only once, was asked once.
    expect(seen.filter((s) => s.url === 'sso/token')).toHaveLength(1);
    expect(getToken()).toBe('sso-token-1');
    expect(localStorage.getItem('token')).toBe('sso-token-1');
    expect(getSession().user).toEqual({
      email: 'ada@example.test',
      username: 'ada@example.test',
      name: 'Ada Lovelace',
      roles: USER.roles,
      effectivePermissions: ['list-recording'],
      authType: 'jwt_auth',
    });
    expect(localStorage.getItem('signInMethod')).toBe('sso');
  });

  it('in the re-authorization popup, posts newAuthToken to the console window (its origin only) and closes', async () => {
    signIn('session-token', STORED_USER);
    const postMessage = openedBy(window.location.origin);
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    fakeServer({
      'GET sso/token': [
        200,
        {
          purpose: 'authorize',
          kind: 'oneshot',
          response: { user: { ...USER, authentication_token: 'one-shot-9', expires_at: '2030-01-01T00:02:00Z' } },
        },
      ],
    });
    renderAt('/sso');

    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith(
      { type: 'newAuthToken', token: 'one-shot-9', kind: 'oneshot', expires_at: '2030-01-01T00:02:00Z' },
      'http://localhost:3000',
    );
    expect(screen.getByText(/^Authorized\./)).toBeTruthy();
    // The one-shot token is for the waiting call only: the shared storage keeps the session.
    expect(localStorage.getItem('token')).toBe('session-token');
    expect(screen.queryByText('start page')).toBeNull();
  });

  it('does not hand a token to a window of another origin', async () => {
    const postMessage = openedBy('https://evil.example.test');
    fakeServer({ 'GET sso/token': [200, { purpose: 'signin', kind: 'session', response: { user: USER } }] });
    renderAt('/sso');
    expect(await screen.findByText('start page')).toBeTruthy();
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('shows the error when there is no completed sign-on, and tells the waiting console window', async () => {
    const postMessage = openedBy(window.location.origin);
    const message = 'No completed single sign-on in this browser, or it expired: sign in again.';
    fakeServer({ 'GET sso/token': [401, { statusCode: 401, error: 'Unauthorized', message }] });
    renderAt('/sso');

    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Close this window' })).toBeTruthy();
    expect(postMessage).toHaveBeenCalledWith({ type: 'ssoError', message }, 'http://localhost:3000');
    expect(getToken()).toBeNull();
  });

  it('never asks for the token again when the page mounts afresh: the server answers it only once', async () => {
    const message = 'No completed single sign-on in this browser, or it expired: sign in again.';
    const seen = fakeServer({ 'GET sso/token': [401, { statusCode: 401, error: 'Unauthorized', message }] });
    const page = renderAt('/sso');
    expect(await screen.findByText(message)).toBeTruthy();

    page.remount();

    expect(await screen.findByText(message)).toBeTruthy();
    expect(seen).toHaveLength(1);
  });

  it('refuses to use a one-shot authorization outside the popup that asked for it', async () => {
    signIn('session-token', STORED_USER);
    fakeServer({
      'GET sso/token': [
        200,
        { purpose: 'authorize', kind: 'oneshot', response: { user: { ...USER, authentication_token: 'one-shot-2' } } },
      ],
    });
    renderAt('/sso');
    expect(await screen.findByText(/only works for the console window that asked for it/)).toBeTruthy();
    expect(getToken()).toBe('session-token');
  });

  it('/ssoauth?purpose=authorize starts the flow once with the stored token and goes to the identity provider', async () => {
    signIn('session-token', STORED_USER);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const seen = fakeServer({ 'POST sso/start': [200, { redirect_url: 'https://idp.example.test/sso?r=1' }] });
    renderAt('/ssoauth?purpose=authorize');

    expect(await screen.findByText('Opening your identity provider…')).toBeTruthy();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.test/sso?r=1'));
    expect(seen).toEqual([
      { method: 'POST', url: 'sso/start', body: { purpose: 'authorize' }, token: 'session-token' },
    ]);
  });

  it('/ssoauth?purpose=authorize without a session says to sign in first and starts nothing', async () => {
    const seen = fakeServer({});
    renderAt('/ssoauth?purpose=authorize');
    expect(await screen.findByText(/Sign in to the console first/)).toBeTruthy();
    expect(seen).toEqual([]);
  });
});

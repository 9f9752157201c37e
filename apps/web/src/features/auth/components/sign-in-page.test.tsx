// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { getToken, signIn, signOut } from '../../../lib/session';
import { SignInPage } from './sign-in-page';

type Answer = [status: number, body: unknown];

/** One request the fake server saw. */
interface Seen {
  method: string;
  url: string;
  body: unknown;
}

const NO_BANNER = { signin_banner: '', allow_signup: false };
const SIGNED_IN_USER = {
  authentication_token: 'tok-1',
  email: 'ada@example.test',
  name: 'Ada',
  roles: [{ name: 'generic-user', permissions: ['list-recording'] }],
  effectivePermissions: ['list-recording'],
  expires_at: '2030-01-01T00:00:00Z',
};

/**
 * Replaces fetch: "METHOD url" (the url as sent, query included) to an answer, or to a promise of
 * one for a call the test holds back. Anything else answers 404.
 */
function fakeServer(answers: Record<string, Answer | Promise<Answer>>): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      seen.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const [status, body] = (await answers[`${method} ${url}`]) ?? [404, { message: 'Not found' }];
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return seen;
}

function renderPage(entry = '/signin') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/signin" element={<SignInPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const ssoButton = (name: RegExp = /single sign-on/) => screen.findByRole('button', { name });
const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => localStorage.clear());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  signOut();
});

describe('SignInPage', () => {
  it('shows the administrator’s banner and a sign-up link when sign-up is open', async () => {
    fakeServer({
      'GET sso': [200, { auth_type: 1 }],
      'GET api/settings/public': [200, { signin_banner: 'Authorised use only.', allow_signup: true }],
    });
    renderPage();
    expect((await screen.findByRole('note', { name: 'Notice from your administrator' })).textContent).toBe(
      'Authorised use only.',
    );
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forget-password');
  });

  it('shows neither without a banner and with sign-up turned off', async () => {
    fakeServer({ 'GET sso': [200, { auth_type: 1 }], 'GET api/settings/public': [200, NO_BANNER] });
    renderPage();
    await screen.findByRole('link', { name: 'Forgot password?' });
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Administrator\?/ })).toBeNull();
  });

  it.each([
    [2, 'SAML'],
    [3, 'OpenID Connect'],
  ])('detects the provider first, then offers single sign-on for auth type %i (%s)', async (authType, protocol) => {
    let answerProvider: (answer: Answer) => void = () => undefined;
    fakeServer({
      'GET sso': new Promise<Answer>((resolve) => (answerProvider = resolve)),
      'GET api/settings/public': [200, NO_BANNER],
    });
    renderPage();

    expect((await screen.findByRole('status')).textContent).toBe('Detecting the sign-in method…');
    expect(screen.queryByRole('button')).toBeNull();

    answerProvider([200, { auth_type: authType }]);
    expect(await ssoButton()).toHaveProperty('textContent', `Sign in with single sign-on (${protocol})`);
    expect(screen.queryByText('Detecting the sign-in method…')).toBeNull();
    expect(screen.queryByLabelText(/^password/i)).toBeNull();
    expect(screen.getByRole('link', { name: 'Administrator? Sign in with a password' })).toBeTruthy();
  });

  it('starts single sign-on with purpose signin and sends the browser to the identity provider', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const seen = fakeServer({
      'GET sso': [200, { auth_type: 3 }],
      'GET api/settings/public': [200, NO_BANNER],
      'POST sso/start': [200, { redirect_url: 'https://idp.example.test/authorize?state=s1' }],
    });
    renderPage();

    fireEvent.click(await ssoButton());

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.test/authorize?state=s1'));
    expect(seen.find((s) => s.url === 'sso/start')).toEqual({
      method: 'POST',
      url: 'sso/start',
      body: { purpose: 'signin' },
    });
    expect(screen.getByRole('status').textContent).toBe('Taking you to your identity provider…');
    expect(await ssoButton()).toHaveProperty('disabled', true);
  });

  it('shows why single sign-on could not start and stays on the page', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    fakeServer({
      'GET sso': [200, { auth_type: 2 }],
      'GET api/settings/public': [200, NO_BANNER],
      'POST sso/start': [
        400,
        { statusCode: 400, error: 'Bad Request', message: 'Single sign-on is not configured here.' },
      ],
    });
    renderPage();

    fireEvent.click(await ssoButton());

    expect(await screen.findByText('Single sign-on is not configured here.')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    expect(await ssoButton()).toHaveProperty('disabled', false);
  });

  it('lets an administrator reveal the password form, sign in with it, and go back to single sign-on', async () => {
    const seen = fakeServer({
      'GET sso': [200, { auth_type: 2 }],
      'GET api/settings/public': [200, NO_BANNER],
      'POST api/login?include_auth_token': [200, { response: { user: SIGNED_IN_USER } }],
    });
    renderPage();

    fireEvent.click(await screen.findByRole('link', { name: 'Administrator? Sign in with a password' }));

    expect(await screen.findByRole('form', { name: 'Sign-in form' })).toBeTruthy();
    expect(screen.getByText(/Password sign-in is kept for administrators/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /single sign-on/ })).toBeNull();

    type(/^email/i, 'ada@example.test');
    type(/^password/i, 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(getToken()).toBe('tok-1'));
    expect(seen.find((s) => s.url === 'api/login?include_auth_token')?.body).toEqual({
      email: 'ada@example.test',
      password: 'correct horse',
    });
    // A password session re-authorizes in the dialog, not in the single sign-on popup.
    expect(localStorage.getItem('signInMethod')).toBe('password');

    fireEvent.click(screen.getByRole('link', { name: 'Sign in with single sign-on instead' }));
    expect(await ssoButton()).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Sign-in form' })).toBeNull();
  });

  it('opens the password form directly for /signin?authprovider=standard', async () => {
    fakeServer({ 'GET sso': [200, { auth_type: 3 }], 'GET api/settings/public': [200, NO_BANNER] });
    renderPage('/signin?authprovider=standard');
    expect(await screen.findByRole('form', { name: 'Sign-in form' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /single sign-on/ })).toBeNull();
  });

  it('signs a directory (LDAP) user in through /ldap/login, without a password-reset link', async () => {
    const seen = fakeServer({
      'GET sso': [200, { auth_type: 4 }],
      'GET api/settings/public': [200, NO_BANNER],
      'POST ldap/login?include_auth_token': [200, { response: { user: SIGNED_IN_USER } }],
    });
    renderPage();

    expect(await screen.findByRole('form', { name: 'Directory sign-in form' })).toBeTruthy();
    expect(screen.getByText("Sign in with your organisation's directory (LDAP) account.")).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
    type(/^email/i, 'ada@example.test');
    type(/^password/i, 'directory secret');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with directory' }));

    await waitFor(() => expect(getToken()).toBe('tok-1'));
    expect(seen.map((s) => s.url)).toContain('ldap/login?include_auth_token');
    expect(seen.map((s) => s.url)).not.toContain('api/login?include_auth_token');
    expect(localStorage.getItem('signInMethod')).toBe('ldap');
  });

  it('falls back to the password form with a notice when the provider cannot be detected', async () => {
    fakeServer({
      'GET sso': [500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }],
      'GET api/settings/public': [200, NO_BANNER],
    });
    renderPage();
    expect(await screen.findByText(/The sign-in method could not be detected/)).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Sign-in form' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('says why the console signed out: the server’s words after it revoked access', async () => {
    signIn('tok-1', { ...SIGNED_IN_USER, username: SIGNED_IN_USER.email, authType: 'jwt_auth' });
    signOut({ kind: 'revoked', message: 'Your session has expired or was signed out. Sign in again.' });
    fakeServer({ 'GET sso': [200, { auth_type: 1 }], 'GET api/settings/public': [200, NO_BANNER] });
    renderPage();
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toBe('You were signed outYour session has expired or was signed out. Sign in again.');
  });

  it('says the session expired when its lifetime ran out here', async () => {
    signIn('tok-1', { ...SIGNED_IN_USER, username: SIGNED_IN_USER.email, authType: 'jwt_auth' });
    signOut({ kind: 'expired' });
    fakeServer({ 'GET sso': [200, { auth_type: 1 }], 'GET api/settings/public': [200, NO_BANNER] });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('Your session has expired. Sign in again');
  });

  it('shows no notice after a sign-out the user asked for', async () => {
    signIn('tok-1', { ...SIGNED_IN_USER, username: SIGNED_IN_USER.email, authType: 'jwt_auth' });
    signOut();
    fakeServer({ 'GET sso': [200, { auth_type: 1 }], 'GET api/settings/public': [200, NO_BANNER] });
    renderPage();
    await screen.findByRole('form', { name: 'Sign-in form' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiCall } from '../../lib/api-client';
import { API } from '../../lib/api-routes';
import { AuthorizationCancelledError, rememberSignInMethod } from '../../lib/reauth';
import { getToken, signIn, signOut } from '../../lib/session';
import { fakeServer, renderWithProviders } from '../testing/render-with-providers';
import { AuthorizeHost } from './authorize-host';

const USER = {
  email: 'ada@example.test',
  username: 'ada@example.test',
  name: null,
  roles: [],
  effectivePermissions: [],
  authType: 'jwt_auth' as const,
};
const REAUTH = { statusCode: 401, error: 'Unauthorized', message: 'Authorization needed', reauth: 'single-use' };

beforeEach(() => {
  localStorage.clear();
  signIn('normal-token', USER);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  signOut();
});

/** A fake server answering each "METHOD url" with the next reply of its queue; records the token sent. */
function queuedServer(replies: Record<string, [number, unknown][]>) {
  const seen: { url: string; body: unknown; token: string | undefined }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    seen.push({
      url,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      token: (init.headers as Record<string, string>)['authentication-token'],
    });
    const [status, body] = replies[`${init.method ?? 'GET'} ${url}`]?.shift() ?? [404, { message: 'Not found' }];
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  return seen;
}

function authorizeButton() {
  return screen.getByRole('button', { name: 'Authorize' });
}

describe('Authorize dialog', () => {
  it('opens on a refused call, says authorization is needed, and retries the call once authorized', async () => {
    const seen = queuedServer({
      'GET api/settings': [
        [401, REAUTH],
        [200, { allow_signup: true }],
      ],
      'POST api/auth/authorize': [[200, { token: 'one-shot', kind: 'oneshot', expires_at: '2030-01-01T00:00:00Z' }]],
    });
    renderWithProviders(<AuthorizeHost />);

    const call = apiCall(API.getSettings);
    const dialog = await screen.findByRole('dialog', { name: 'Authorize' });
    expect(dialog.textContent).toContain('Authorization needed');
    // The snackbar's warning (spec §8), beside the dialog.
    expect(document.querySelector('.MuiSnackbar-root')?.textContent).toBe('Authorization needed');
    expect(screen.getByLabelText<HTMLInputElement>('User Email').value).toBe('ada@example.test');
    expect(authorizeButton()).toHaveProperty('disabled', true);

    const password = screen.getByLabelText('User Password');
    fireEvent.change(password, { target: { value: 'my password' } });
    expect(authorizeButton()).toHaveProperty('disabled', false);
    // Enter in the password field submits its form (the browser's implicit submission).
    fireEvent.submit(password.closest('form') ?? password);

    await expect(call).resolves.toEqual({ allow_signup: true });
    expect(seen.find((s) => s.url === 'api/auth/authorize')?.body).toEqual({ password: 'my password' });
    expect(seen.filter((s) => s.url === 'api/settings').map((s) => s.token)).toEqual(['normal-token', 'one-shot']);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Authorize' })).toBeNull());
  });

  it('keeps the dialog open with the server’s reason when the password is wrong', async () => {
    fakeServer({
      'POST api/security': [401, REAUTH],
      'POST api/auth/authorize': [
        401,
        { statusCode: 401, error: 'Unauthorized', message: 'The password is not correct.' },
      ],
    });
    renderWithProviders(<AuthorizeHost />);

    const call = apiCall(API.saveSecurity, { body: { api_limit_single_use: true } });
    call.catch(() => undefined);
    await screen.findByRole('dialog', { name: 'Authorize' });
    fireEvent.change(screen.getByLabelText('User Password'), { target: { value: 'wrong' } });
    fireEvent.click(authorizeButton());

    expect(await screen.findByText('The password is not correct.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Authorize' })).toBeTruthy();
    // A wrong password is not a lost session.
    expect(getToken()).toBe('normal-token');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(call).rejects.toBeInstanceOf(AuthorizationCancelledError);
    await expect(call).rejects.toThrow('Authorization cancelled: the action was not carried out.');
  });

  it('lets a single sign-on session authorize in the popup instead, still saying authorization is needed', async () => {
    rememberSignInMethod('sso');
    const seen = queuedServer({
      'POST api/security': [
        [401, REAUTH],
        [200, { message: 'Configuration saved.' }],
      ],
    });
    const popup = { closed: false, close: vi.fn() };
    const open = vi.fn(() => popup);
    vi.stubGlobal('open', open);
    renderWithProviders(<AuthorizeHost />);

    const call = apiCall(API.saveSecurity, { body: {} });
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(document.querySelector('.MuiSnackbar-root')?.textContent).toBe('Authorization needed');
    expect(screen.queryByRole('dialog', { name: 'Authorize' })).toBeNull();

    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'newAuthToken', token: 'sso-one-shot', kind: 'oneshot', expires_at: '2030-01-01T00:02:00Z' },
        }),
      );
    });
    await expect(call).resolves.toEqual({ message: 'Configuration saved.' });
    expect(seen.map((s) => s.token)).toEqual(['normal-token', 'sso-one-shot']);
  });

  it('after the popup, asks a single sign-on user with a second factor only for the code, and sends it with the step', async () => {
    rememberSignInMethod('sso');
    const seen = queuedServer({
      'POST api/security': [
        [401, REAUTH],
        [200, { message: 'Configuration saved.' }],
      ],
      'POST sso/second-factor': [
        [401, { statusCode: 401, error: 'Unauthorized', message: 'That code is not right.' }],
        [200, { token: 'after-code', kind: 'oneshot', expires_at: '2030-01-01T00:02:00Z' }],
      ],
    });
    const popup = { closed: false, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => popup),
    );
    renderWithProviders(<AuthorizeHost />);

    const call = apiCall(API.saveSecurity, { body: {} });
    await waitFor(() => expect(window.open).toHaveBeenCalled());
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'secondFactor', step: 'the-step', methods: ['totp', 'recovery-code'] },
        }),
      );
    });
    const dialog = await screen.findByRole('dialog', { name: 'Authorize' });
    expect(dialog.textContent).toContain('You signed in at your identity provider.');
    expect(screen.queryByLabelText('User Password')).toBeNull();
    expect(screen.queryByRole('button', { name: /passkey/ })).toBeNull();
    expect(authorizeButton()).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Code from your app'), { target: { value: '000000' } });
    fireEvent.click(authorizeButton());
    // A wrong code keeps the dialog open with the reason; the session is not lost.
    expect(await screen.findByText('That code is not right.')).toBeTruthy();
    expect(getToken()).toBe('normal-token');
    fireEvent.change(screen.getByLabelText('Code from your app'), { target: { value: ' 123456 ' } });
    fireEvent.click(authorizeButton());

    await expect(call).resolves.toEqual({ message: 'Configuration saved.' });
    const sent = seen.filter((s) => s.url === 'sso/second-factor');
    expect(sent.map((s) => s.body)).toEqual([
      { step: 'the-step', code: '000000' },
      { step: 'the-step', code: '123456' },
    ]);
    expect(sent.map((s) => s.token)).toEqual(['normal-token', 'normal-token']);
    expect(seen.filter((s) => s.url === 'api/security').map((s) => s.token)).toEqual(['normal-token', 'after-code']);
  });
});

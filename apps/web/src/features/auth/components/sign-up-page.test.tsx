// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { getSession, signOut } from '../../../lib/session';
import { SignUpPage } from './sign-up-page';

const SIGNED_UP = {
  message: 'Check your email at new@example.test: open the link we sent to confirm your address, then sign in.',
  email: 'new@example.test',
};

/** Answers api/settings/public with the flag, and api/users as the server does (nobody signed in). */
function renderPage(allowSignup: boolean) {
  const fetch = vi.fn((url: string, _init?: RequestInit) =>
    Promise.resolve(
      new Response(
        JSON.stringify(url === 'api/settings/public' ? { signin_banner: '', allow_signup: allowSignup } : SIGNED_UP),
        { status: url === 'api/users' ? 201 : 200 },
      ),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <SignUpPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetch;
}

const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('SignUpPage', () => {
  it('says sign-up is turned off when the settings do not allow it', async () => {
    renderPage(false);
    expect(await screen.findByText('Sign-up is turned off here. Ask an administrator for an account.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
  });

  it('asks for a name, signs nobody in, and says to open the mailed link', async () => {
    const fetch = renderPage(true);
    await screen.findByRole('button', { name: 'Create account' });
    type(/^Email/, 'new@example.test');
    type(/^Password/, 'long-enough-1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Please enter your name!')).toBeTruthy();
    type(/^Name/, 'New Person');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Check your mail')).toBeTruthy();
    expect(screen.getByText(/We sent a link to new@example\.test/)).toBeTruthy();
    expect(getSession().token).toBeFalsy();
    const call = fetch.mock.calls.find(([url]) => url === 'api/users')!;
    expect(JSON.parse(call[1]!.body as string)).toEqual({
      email: 'new@example.test',
      name: 'New Person',
      password: 'long-enough-1',
    });
  });
});

// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { SignInPage } from './sign-in-page';

/** Answers GET /sso with password sign-in and api/settings/public with the given settings. */
function renderPage(settings: { signin_banner: string; allow_signup: boolean }) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(new Response(JSON.stringify(url === 'sso' ? { auth_type: 1 } : settings), { status: 200 })),
    ),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SignInPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SignInPage', () => {
  it('shows the administrator’s banner and a sign-up link when sign-up is open', async () => {
    renderPage({ signin_banner: 'Authorised use only.', allow_signup: true });
    expect((await screen.findByRole('note', { name: 'Notice from your administrator' })).textContent).toBe(
      'Authorised use only.',
    );
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forget-password');
  });

  it('shows neither without a banner and with sign-up turned off', async () => {
    renderPage({ signin_banner: '', allow_signup: false });
    await screen.findByRole('link', { name: 'Forgot password?' });
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
  });
});

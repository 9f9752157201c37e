// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { VerifyEmailPage } from './verify-email-page';

function renderPage(path: string, status: number, body: unknown) {
  const fetch = vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(new Response(JSON.stringify(body), { status })),
  );
  vi.stubGlobal('fetch', fetch);
  render(
    <StrictMode>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <VerifyEmailPage />
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('VerifyEmailPage', () => {
  it('spends the one-time link once, even when rendered twice, then offers sign-in', async () => {
    const fetch = renderPage('/verify-email?token=abc', 200, { message: 'confirmed' });
    expect(await screen.findByText('Your email address is confirmed. You can now sign in.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
    const calls = fetch.mock.calls.filter(([url]) => url === 'api/user/verify-email');
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]![1]!.body as string)).toEqual({ token: 'abc' });
  });

  it('shows why a used or expired link is refused, and offers a reset link instead', async () => {
    renderPage('/verify-email?token=used', 400, {
      message: 'This verification link is invalid, already used or expired.',
    });
    expect(await screen.findByText(/invalid, already used or expired/)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Forgot password/ })).toBeTruthy();
  });

  it('sends nothing without a token', () => {
    const fetch = renderPage('/verify-email', 200, {});
    expect(screen.getByText(/no confirmation token/)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});

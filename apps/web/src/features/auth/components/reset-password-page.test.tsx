// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { ResetPasswordPage } from './reset-password-page';

function renderPage(path: string, status = 200, body: unknown = {}) {
  const fetch = vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(new Response(JSON.stringify(body), { status })),
  );
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <ResetPasswordPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetch;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ResetPasswordPage', () => {
  it('says so when the link carries no token, and offers a new link', () => {
    renderPage('/reset-password');
    expect(screen.getByText('This link has no reset token. Ask for a new link.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forget-password');
  });

  it('checks length and match before sending the token with the new password', async () => {
    const fetch = renderPage('/reset-password?token=abc', 200, {
      message: 'The new Password has been successfully set',
    });
    type('New password', 'short');
    submit();
    expect(screen.getAllByText('Passwords need to be at least 8 characters long').length).toBeGreaterThan(0);
    type('New password', 'brand-new-1');
    type('Confirm new password', 'brand-new-2');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    type('Confirm new password', 'brand-new-1');
    submit();
    expect(await screen.findByText('The new Password has been successfully set')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in with your new password' }).getAttribute('href')).toBe('/signin');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({
      token: 'abc',
      new_password: 'brand-new-1',
      new_password_confirm: 'brand-new-1',
    });
  });

  it('shows the server’s message for a used or expired link', async () => {
    const message = 'This reset link is invalid, already used or expired. Ask for a new one.';
    renderPage('/reset-password?token=used', 400, { statusCode: 400, error: 'Bad Request', message });
    type('New password', 'brand-new-1');
    type('Confirm new password', 'brand-new-1');
    submit();
    expect(await screen.findByText(message)).toBeTruthy();
  });
});

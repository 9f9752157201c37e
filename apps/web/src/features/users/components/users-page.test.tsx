// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { SnackbarProvider } from '../../../components/snackbar/snackbar-provider';
import type { StoredUser } from '../../../lib/session';
import { signIn, signOut } from '../../../lib/session';
import { UsersPage } from './users-page';

const row = (email: string) => ({
  id: email,
  email,
  name: 'Grace Kim',
  roles: ['user'],
  groups: [],
  created_at: '2026-01-02T03:04:05.000Z',
  two_factor: { totp: false, passkeys: 0 },
});

function signInAs(email: string, permissions: string[]) {
  const user: StoredUser = {
    email,
    username: email,
    name: null,
    roles: [{ name: 'user', permissions }],
    effectivePermissions: permissions,
    authType: 'jwt_auth',
  };
  signIn('token', user);
}

function renderPage(answer: () => Response) {
  const fetch = vi.fn((_url: string) => Promise.resolve(answer()));
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SnackbarProvider>
        <UsersPage />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return fetch;
}

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('UsersPage', () => {
  it('asks the server for the first page of 25 and offers Add user to holders of modify-user', async () => {
    signInAs('admin@example.test', ['list-user', 'modify-user']);
    const fetch = renderPage(() => new Response(JSON.stringify({ users: [row('a@example.test')], total: 1 })));
    expect(await screen.findByText('Matching users: 1')).toBeTruthy();
    expect(fetch.mock.calls[0]![0]).toBe('api/user?limit=25&offset=0');
    expect(screen.getByRole('button', { name: 'Add user' })).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toBeTruthy();
  });

  it('tells a user without list-user that they see only themselves, with no Add user', async () => {
    signInAs('grace@example.test', []);
    renderPage(() => new Response(JSON.stringify({ users: [row('grace@example.test')], total: 1 })));
    expect(await screen.findByText(/You can see only your own account/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('shows the server’s reason and a retry button when the list fails', async () => {
    signInAs('admin@example.test', ['list-user']);
    const body = { statusCode: 500, error: 'Internal Server Error', message: 'Database unavailable' };
    renderPage(() => new Response(JSON.stringify(body), { status: 500 }));
    expect(
      await screen.findByText('The users could not be loaded: Database unavailable', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { StoredUser } from '../../../lib/session';
import { signIn, signOut } from '../../../lib/session';
import type { TunnelItem } from '../api/list-tunnels';
import { AssignUsersDialog } from './assign-users-dialog';
import { TunnelsPage } from './tunnels-page';
import { setWindowWidth } from '../../../components/testing/window-width';

const HOST = { id: '6f1c1f3e-8d7e-4c5b-9a51-000000000001', hostname: 'web-01' };
const GRACE: { id: string; email: string; name: string | null } = {
  id: 'b0000000-0000-4000-8000-000000000001',
  email: 'grace@example.test',
  name: null,
};
const EMMA = { id: 'b0000000-0000-4000-8000-000000000002', email: 'emma@example.test', name: 'Emma Rossi' };
const user = (u: typeof GRACE) => ({ ...u, roles: ['user'], groups: [], created_at: '2026-01-01T00:00:00.000Z' });
const definition = (name: string, type: TunnelItem['type'], patch: Partial<TunnelItem> = {}): TunnelItem => ({
  id: `a1b2c3d4-0000-4000-8000-${(name === 'desktop' ? 2 : 1).toString().padStart(12, '0')}`,
  type,
  name,
  host: HOST,
  port: type === 'rdp' ? 3389 : 22,
  users: [],
  group: null,
  agents: [],
  ssh_login: type === 'ssh' ? 'deploy' : null,
  ssh_auth: type === 'ssh' ? 'key' : null,
  public_key: null,
  allow_port_forwarding: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...patch,
});
const LISTS = { ssh: [definition('web ssh', 'ssh')], rdp: [definition('desktop', 'rdp')], generic: [], agent: [] };

function signInWith(permissions: string[]) {
  const stored: StoredUser = {
    email: 'a@example.test',
    username: 'a@example.test',
    name: null,
    roles: [{ name: 'ops', permissions }],
    effectivePermissions: permissions,
    authType: 'jwt_auth',
  };
  signIn('token', stored);
}

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('TunnelsPage', () => {
  it('shows one tab per type plus all, with counts, and each tab’s definitions', async () => {
    signInWith(['list-all-tunnel-definitions', 'create-tunnel-definition']);
    fakeServer({ 'GET api/tunneldefinition/all': [200, LISTS] });
    // A desktop's width: a column per fact (below lg one summary column shows instead).
    setWindowWidth(1440);
    renderWithProviders(<TunnelsPage />);
    expect(await screen.findByText('web ssh')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'SSH (1)' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('columnheader', { name: 'Login' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'All (2)' }));
    expect(await screen.findByText('desktop')).toBeTruthy();
    expect(screen.getByText('web ssh')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Generic (0)' }));
    expect(await screen.findByText('No generic tunnels yet')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Create tunnel' }).length).toBe(2);
  });

  it('offers no create button to readers', async () => {
    signInWith(['list-all-tunnel-definitions']);
    fakeServer({ 'GET api/tunneldefinition/all': [200, { ssh: [], rdp: [], generic: [], agent: [] }] });
    renderWithProviders(<TunnelsPage />);
    expect(await screen.findByText('No SSH tunnels yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create tunnel' })).toBeNull();
  });

  it('shows why the list failed, with a retry', async () => {
    signInWith(['list-all-tunnel-definitions']);
    const body = { statusCode: 403, error: 'Forbidden', message: 'You need list-all-tunnel-definitions.' };
    fakeServer({ 'GET api/tunneldefinition/all': [403, body] });
    renderWithProviders(<TunnelsPage />);
    expect(await screen.findByText('Could not load this list: You need list-all-tunnel-definitions.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('AssignUsersDialog', () => {
  it('starts from the admitted users and saves exactly the set chosen', async () => {
    signInWith(['modify-tunnel-definition', 'list-user']);
    const item = definition('web ssh', 'ssh', { users: [GRACE.id] });
    const seen = fakeServer({
      'GET api/user': [200, { users: [user(GRACE), user(EMMA)], total: 2 }],
      [`PUT api/tunneldefinition/${item.id}/users`]: [200, { message: 'Tunnel updated' }],
    });
    renderWithProviders(<AssignUsersDialog item={item} onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Users of web ssh' });
    expect(await within(dialog).findByText(GRACE.email)).toBeTruthy();
    const picker = within(dialog).getByLabelText('Users');
    fireEvent.change(picker, { target: { value: 'emma' } });
    fireEvent.click(await screen.findByText('Emma Rossi'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save users' }));
    expect(await screen.findByText('Tunnel updated')).toBeTruthy();
    await waitFor(() =>
      expect(seen.find((request) => request.method === 'PUT')?.body).toEqual({ users: [GRACE.id, EMMA.id] }),
    );
  });

  it('closes after saving even when the list refreshes with the new users meanwhile', async () => {
    signInWith(['modify-tunnel-definition', 'list-user']);
    const item = definition('web ssh', 'ssh');
    fakeServer({
      'GET api/user': [200, { users: [user(GRACE), user(EMMA)], total: 2 }],
      [`PUT api/tunneldefinition/${item.id}/users`]: [200, { message: 'Tunnel updated' }],
    });
    const onClose = vi.fn();
    // The list refreshes while the save runs: the definition comes back with its new user.
    function Harness() {
      const [current, setCurrent] = useState(item);
      return (
        <>
          <button type="button" onClick={() => setCurrent({ ...item, users: [EMMA.id] })}>
            refresh
          </button>
          <AssignUsersDialog item={current} onClose={onClose} />
        </>
      );
    }
    renderWithProviders(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Users of web ssh' });
    fireEvent.change(within(dialog).getByLabelText('Users'), { target: { value: 'emma' } });
    fireEvent.click(await screen.findByText('Emma Rossi'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save users' }));
    fireEvent.click(screen.getByText('refresh'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});

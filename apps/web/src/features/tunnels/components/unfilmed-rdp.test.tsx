// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { StoredUser } from '../../../lib/session';
import { signIn, signOut } from '../../../lib/session';
import type { TunnelItem } from '../api/list-tunnels';
import { TunnelDialogs } from './tunnel-dialogs';

const HOST = { id: '6f1c1f3e-8d7e-4c5b-9a51-000000000002', hostname: 'win-01' };
const AGENT = {
  ...HOST,
  os: 2,
  version: '2.0.0',
  connected: true,
  state: 'connected',
  last_seen: null,
  created_at: '2026-01-01T00:00:00.000Z',
  config: {},
};
const rdp: TunnelItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000009',
  type: 'rdp',
  name: 'win desktop',
  host: HOST,
  port: 3389,
  users: [],
  group: null,
  agents: [],
  ssh_login: null,
  ssh_auth: null,
  public_key: null,
  allow_port_forwarding: false,
  unfilmed_rdp: 'allow',
  created_at: '2026-01-01T00:00:00.000Z',
};
const closed = {
  creating: false,
  createType: 'rdp' as const,
  onCreateClose: vi.fn(),
  action: null,
  onActionClose: vi.fn(),
};

beforeEach(() => {
  const user: StoredUser = {
    email: 'admin@example.test',
    username: 'admin@example.test',
    name: null,
    roles: [{ name: 'tunnel-admin', permissions: ['create-tunnel-definition', 'modify-tunnel-definition'] }],
    effectivePermissions: ['create-tunnel-definition', 'modify-tunnel-definition'],
    authType: 'jwt_auth',
  };
  signIn('token', user);
});

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('the unfilmed-RDP choice of rdp definitions', () => {
  it('refuses by default, and sends allow when chosen, with help text', async () => {
    const seen = fakeServer({
      'GET api/agent': [200, { agents: [AGENT] }],
      'POST api/tunneldefinition/rdp': [201, { definition: rdp, message: 'Tunnel created' }],
    });
    renderWithProviders(<TunnelDialogs {...closed} creating all={[]} />);
    const form = screen.getByRole('dialog', { name: 'Create tunnel' });
    const group = within(form).getByRole('radiogroup', { name: 'RDP sessions that cannot be filmed' });
    expect(within(group).getByRole('radio', { name: 'Refuse the connection' })).toHaveProperty('checked', true);
    expect(group.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(form).getByText(/Not filmed” in Sessions and the audit trail/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'win desktop' } });
    const host = screen.getByLabelText('Host');
    await waitFor(() => expect(host.getAttribute('aria-disabled')).toBeNull());
    fireEvent.mouseDown(host);
    fireEvent.click(await screen.findByRole('option', { name: /win-01/ }));
    fireEvent.click(within(group).getByRole('radio', { name: 'Allow, marked not filmed' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Create tunnel' }));
    expect(await screen.findByText('Tunnel created')).toBeTruthy();
    expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'win desktop',
      host_id: HOST.id,
      port: 3389,
      unfilmed_rdp: 'allow',
      rdp_clipboard: 'both',
    });
  });

  it('shows the stored choice when editing, and is absent for other types', async () => {
    fakeServer({ 'GET api/agent': [200, { agents: [AGENT] }] });
    renderWithProviders(<TunnelDialogs {...closed} action={{ action: 'edit', id: rdp.id }} all={[rdp]} />);
    const form = screen.getByRole('dialog', { name: 'Edit win desktop' });
    expect(within(form).getByRole('radio', { name: 'Allow, marked not filmed' })).toHaveProperty('checked', true);
    cleanup();
    renderWithProviders(<TunnelDialogs {...closed} creating createType="generic" all={[]} />);
    expect(screen.queryByRole('radiogroup', { name: 'RDP sessions that cannot be filmed' })).toBeNull();
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { StoredUser } from '../../../lib/session';
import { signIn, signOut } from '../../../lib/session';
import type { TunnelItem } from '../api/list-tunnels';
import { TunnelDialogs } from './tunnel-dialogs';

const HOST = { id: '6f1c1f3e-8d7e-4c5b-9a51-000000000001', hostname: 'web-01' };
const AGENT = {
  ...HOST,
  os: 1,
  version: '2.0.0',
  connected: true,
  state: 'connected',
  last_seen: null,
  created_at: '2026-01-01T00:00:00.000Z',
  config: {},
};
const PUBLIC_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH gatehouse-deploy';
const definition = (patch: Partial<TunnelItem>): TunnelItem => ({
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  type: 'ssh',
  name: 'web ssh',
  host: HOST,
  port: 22,
  users: [],
  group: null,
  agents: [],
  ssh_login: 'deploy',
  ssh_auth: 'key',
  public_key: PUBLIC_KEY,
  allow_port_forwarding: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...patch,
});
const closed = {
  creating: false,
  createType: 'ssh' as const,
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

async function choose(label: string, option: string | RegExp) {
  const select = screen.getByLabelText(label);
  // The host list loads first; the select is disabled until then.
  await waitFor(() => expect(select.getAttribute('aria-disabled')).toBeNull());
  fireEvent.mouseDown(select);
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('TunnelDialogs', () => {
  it('creates an ssh key-pair definition and shows its public key with the authorized_keys line', async () => {
    const seen = fakeServer({
      'GET api/agent': [200, { agents: [AGENT] }],
      'POST api/tunneldefinition/ssh': [201, { definition: definition({}), message: 'Tunnel created' }],
    });
    renderWithProviders(<TunnelDialogs {...closed} creating all={[]} />);
    const form = screen.getByRole('dialog', { name: 'Create tunnel' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'web ssh' } });
    await choose('Host', /web-01/);
    fireEvent.change(within(form).getByLabelText('Login on the host'), { target: { value: 'deploy' } });
    expect(within(form).getByLabelText('Port')).toHaveProperty('value', '22');
    // Port forwarding is off unless switched on, and the switch says what it allows.
    const forwarding = within(form).getByRole('switch', { name: 'Allow port forwarding (ssh -L)' });
    expect(forwarding).toHaveProperty('checked', false);
    expect(forwarding.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(form).getByText(/only the ports in the host’s whitelist/)).toBeTruthy();
    fireEvent.click(forwarding);
    fireEvent.click(within(form).getByRole('button', { name: 'Create tunnel' }));
    expect(await screen.findByText('Tunnel created')).toBeTruthy();
    expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'web ssh',
      host_id: HOST.id,
      port: 22,
      ssh_login: 'deploy',
      ssh_auth: 'key',
      allow_port_forwarding: true,
    });
    const shown = await screen.findByRole('dialog', { name: 'Public key of web ssh' });
    expect(within(shown).getByLabelText('Public key')).toHaveProperty('value', PUBLIC_KEY);
    expect(within(shown).getByText(/~\/\.ssh\/authorized_keys of the user deploy on web-01/)).toBeTruthy();
    expect(within(shown).getByLabelText<HTMLTextAreaElement>('Command').value).toContain('sudo -H -u deploy');
  });

  it('requires a port for generic tunnels before calling the server', async () => {
    const seen = fakeServer({ 'GET api/agent': [200, { agents: [AGENT] }] });
    renderWithProviders(<TunnelDialogs {...closed} creating createType="generic" all={[]} />);
    const form = screen.getByRole('dialog', { name: 'Create tunnel' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create tunnel' }));
    expect(within(form).getByText('Port is required for this type')).toBeTruthy();
    expect(within(form).getByText('Name is required')).toBeTruthy();
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('edits the port, leaving a blank password as it is', async () => {
    const stored = definition({ ssh_auth: 'password', public_key: null });
    const seen = fakeServer({
      'GET api/agent': [200, { agents: [AGENT] }],
      [`PUT api/tunneldefinition/${stored.id}`]: [200, { definition: stored, message: 'Tunnel updated' }],
    });
    renderWithProviders(<TunnelDialogs {...closed} action={{ action: 'edit', id: stored.id }} all={[stored]} />);
    const form = screen.getByRole('dialog', { name: 'Edit web ssh' });
    expect(within(form).getByText('Leave blank to keep the current password.')).toBeTruthy();
    expect(within(form).queryByLabelText('Type')).toBeNull();
    fireEvent.change(within(form).getByLabelText('Port'), { target: { value: '2222' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Tunnel updated')).toBeTruthy();
    expect(seen.find((request) => request.method === 'PUT')?.body).toEqual({
      name: 'web ssh',
      host_id: HOST.id,
      port: 2222,
      ssh_login: 'deploy',
      ssh_auth: 'password',
      allow_port_forwarding: false,
    });
  });

  it('says why no host can be chosen when the host list is refused', async () => {
    const message = 'You need one of these permissions: list-host.';
    fakeServer({ 'GET api/agent': [403, { statusCode: 403, error: 'Forbidden', message }] });
    renderWithProviders(<TunnelDialogs {...closed} creating all={[]} />);
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('shows the server’s refusal', async () => {
    const message = 'There is no agent with that host_id.';
    fakeServer({
      'GET api/agent': [200, { agents: [AGENT] }],
      'POST api/tunneldefinition/rdp': [404, { statusCode: 404, error: 'Not Found', message }],
    });
    renderWithProviders(<TunnelDialogs {...closed} creating createType="rdp" all={[]} />);
    const form = screen.getByRole('dialog', { name: 'Create tunnel' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'desk' } });
    await choose('Host', /web-01/);
    fireEvent.click(within(form).getByRole('button', { name: 'Create tunnel' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../../components/testing/render-with-providers';
import '../../../../lib/i18n';
import type { StoredUser } from '../../../../lib/session';
import { signIn, signOut } from '../../../../lib/session';
import type { AgentItem } from '../../api/list-agents';
import { defaultConfig } from '../../config/host-config';
import { AddHostDialog } from './add-host-dialog';
import { HostWatch } from './host-watch';

const KEY = {
  uuid: '6f1c1f3e-8d7e-4c5b-9a51-1d2f3e4a5b6c',
  description: 'Berlin site',
  created: '2026-01-01T00:00:00.000Z',
  created_by: 'admin@example.test',
  last_used_at: null,
  expires_at: '2099-01-01T00:00:00.000Z',
  uses: 3,
  uses_left: 2,
};
const EXPIRED = {
  ...KEY,
  uuid: '7a1c1f3e-8d7e-4c5b-9a51-1d2f3e4a5b6c',
  description: 'Old lab',
  expires_at: '2020-01-01T00:00:00.000Z',
};
const USED_UP = { ...KEY, uuid: '8b1c1f3e-8d7e-4c5b-9a51-1d2f3e4a5b6c', description: 'Paris site', uses_left: 0 };
const origin = window.location.origin;

function signInAs(role: string) {
  const user: StoredUser = {
    email: 'a@example.test',
    username: 'a@example.test',
    name: null,
    roles: [{ name: role, permissions: ['list-host'] }],
    effectivePermissions: ['list-host'],
    authType: 'jwt_auth',
  };
  signIn('token', user);
}

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('AddHostDialog', () => {
  it('generates a key and shows the command and variables with its secret, then waits', async () => {
    signInAs('admin');
    const seen = fakeServer({
      'GET api/agent': [200, { agents: [] }],
      'POST api/apikey': [201, { ...KEY, key: 'ghk_secret', message: 'Registration key created.' }],
    });
    renderWithProviders(<AddHostDialog open onClose={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Key description'), { target: { value: 'Berlin site' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate key' }));
    expect(await screen.findByLabelText('Install command (Linux, systemd)')).toHaveProperty(
      'value',
      `curl -fsSL ${origin}/api/agent/install.sh | sudo sh -s -- --key ghk_secret`,
    );
    expect(screen.getByRole('button', { name: 'Copy install command' })).toBeTruthy();
    expect(screen.getByLabelText('Agent command')).toHaveProperty(
      'value',
      `npx gatehouse-agent --server ${origin} --key ghk_secret --state-dir /var/lib/gatehouse-agent`,
    );
    expect(screen.getByLabelText('Environment variables')).toHaveProperty(
      'value',
      `export GATEHOUSE_SERVER=${origin}\nexport GATEHOUSE_REGISTRATION_KEY=ghk_secret\nexport GATEHOUSE_AGENT_STATE_DIR=/var/lib/gatehouse-agent\nnpx gatehouse-agent`,
    );
    expect(screen.getByText(/shown only this once/)).toBeTruthy();
    expect(screen.getAllByText('Waiting for the new host to connect…').length).toBeGreaterThan(0);
    expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
      description: 'Berlin site',
      expires_in_hours: 24,
      uses: 1,
    });
  });

  it('generates a key with the validity and number of hosts chosen', async () => {
    signInAs('admin');
    const seen = fakeServer({
      'GET api/agent': [200, { agents: [] }],
      'POST api/apikey': [201, { ...KEY, key: 'ghk_secret', message: 'Registration key created.' }],
    });
    renderWithProviders(<AddHostDialog open onClose={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Key description'), { target: { value: 'Rack 4' } });
    fireEvent.change(screen.getByLabelText('Valid for'), { target: { value: '0' } });
    expect(screen.getByText('A whole number of hours from 1 to 8,760 (a year)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate key' }));
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);

    fireEvent.change(screen.getByLabelText('Valid for'), { target: { value: '7' } });
    fireEvent.mouseDown(screen.getByLabelText('Unit'));
    fireEvent.click(await screen.findByRole('option', { name: 'Days' }));
    fireEvent.change(screen.getByLabelText('Hosts it may enrol'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate key' }));
    await screen.findByLabelText('Agent command');
    expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
      description: 'Rack 4',
      expires_in_hours: 168,
      uses: 12,
    });
  });

  it('lists expired and used-up keys marked, and lets only a usable one be picked', async () => {
    signInAs('admin');
    fakeServer({ 'GET api/agent': [200, { agents: [] }], 'GET api/apikey': [200, { keys: [USED_UP, EXPIRED, KEY] }] });
    renderWithProviders(<AddHostDialog open onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Use an existing key' }));
    const select = await screen.findByLabelText('Existing key');
    await waitFor(() => expect(select.getAttribute('aria-disabled')).toBeNull());
    fireEvent.mouseDown(select);
    expect((await screen.findByRole('option', { name: 'Old lab (Expired)' })).getAttribute('aria-disabled')).toBe(
      'true',
    );
    expect(screen.getByRole('option', { name: 'Paris site (Used up)' }).getAttribute('aria-disabled')).toBe('true');
    expect(
      screen.getByRole('option', { name: /^Berlin site \(2 of 3 uses left, until / }).getAttribute('aria-disabled'),
    ).toBeNull();
  });

  it('says when every key has expired or been used up', async () => {
    signInAs('admin');
    fakeServer({ 'GET api/agent': [200, { agents: [] }], 'GET api/apikey': [200, { keys: [USED_UP, EXPIRED] }] });
    renderWithProviders(<AddHostDialog open onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Use an existing key' }));
    expect(await screen.findByText('Every key has expired or been used up: generate a new one.')).toBeTruthy();
  });

  it('puts a placeholder in the command for an existing key, and says why', async () => {
    signInAs('admin');
    fakeServer({ 'GET api/agent': [200, { agents: [] }], 'GET api/apikey': [200, { keys: [KEY] }] });
    renderWithProviders(<AddHostDialog open onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Use an existing key' }));
    const select = await screen.findByLabelText('Existing key');
    await waitFor(() => expect(select.getAttribute('aria-disabled')).toBeNull());
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByRole('option', { name: /Berlin site/ }));
    expect(await screen.findByLabelText('Agent command')).toHaveProperty(
      'value',
      `npx gatehouse-agent --server ${origin} --key <REGISTRATION_KEY> --state-dir /var/lib/gatehouse-agent`,
    );
    expect(screen.getByText(/Replace <REGISTRATION_KEY> with the secret of the key Berlin site/)).toBeTruthy();
    expect(screen.getByLabelText('Install command (Linux, systemd)')).toHaveProperty(
      'value',
      `curl -fsSL ${origin}/api/agent/install.sh | sudo sh -s -- --key <REGISTRATION_KEY>`,
    );
  });

  it('tells a non-administrator to ask for a key, without listing keys', () => {
    signInAs('operator');
    const seen = fakeServer({ 'GET api/agent': [200, { agents: [] }] });
    renderWithProviders(<AddHostDialog open onClose={vi.fn()} />);
    expect(screen.getByText(/Registration keys are managed by administrators/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Generate key' })).toBeNull();
    expect(screen.getByLabelText<HTMLTextAreaElement>('Agent command').value).toContain('<REGISTRATION_KEY>');
    expect(seen.filter((request) => request.url.startsWith('api/apikey'))).toEqual([]);
  });
});

describe('HostWatch', () => {
  const host = (id: string, hostname: string, connected: boolean): AgentItem => ({
    id,
    hostname,
    os: 1,
    version: '2.0.0',
    connected,
    state: connected ? 'connected' : 'disconnected',
    last_seen: null,
    created_at: '2026-01-01T00:00:00.000Z',
    config: defaultConfig(1),
  });

  it('waits while only known hosts are listed, then names the one that joined', () => {
    const known = new Set(['old']);
    const { rerender } = render(<HostWatch known={known} agents={[host('old', 'old-01', true)]} />);
    expect(screen.getAllByText('Waiting for the new host to connect…').length).toBeGreaterThan(0);
    rerender(<HostWatch known={known} agents={[host('old', 'old-01', true), host('new', 'web-07', true)]} />);
    expect(screen.getByText('web-07 has joined and is connected.')).toBeTruthy();
    expect(screen.queryByText(/old-01/)).toBeNull();
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { setWindowWidth } from '../../../components/testing/window-width';
import type { StoredUser } from '../../../lib/session';
import { signIn, signOut } from '../../../lib/session';
import type { AgentItem } from '../api/list-agents';
import { defaultConfig } from '../config/host-config';
import { DeleteAgentDialog } from './delete-agent-dialog';
import { HostsPage } from './hosts-page';

const agent = (id: string, hostname: string, os: 1 | 2 | 3, connected: boolean): AgentItem => ({
  id,
  hostname,
  os,
  version: '2.0.0',
  connected,
  state: connected ? 'connected' : 'disconnected',
  last_seen: connected ? new Date().toISOString() : '2026-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  config: defaultConfig(os),
});
const AGENTS = [
  agent('6f1c1f3e-8d7e-4c5b-9a51-000000000001', 'db-01', 1, true),
  agent('6f1c1f3e-8d7e-4c5b-9a51-000000000002', 'win-02', 2, false),
];

function signInWith(permissions: string[]) {
  const user: StoredUser = {
    email: 'ops@example.test',
    username: 'ops@example.test',
    name: null,
    roles: [{ name: 'operator', permissions }],
    effectivePermissions: permissions,
    authType: 'jwt_auth',
  };
  signIn('token', user);
}

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('HostsPage', () => {
  it('lists hosts with their connection in words, OS, version and last contact', async () => {
    signInWith(['list-host']);
    fakeServer({ 'GET api/agent': [200, { agents: AGENTS }] });
    renderPage();
    const row = (await screen.findByText('db-01')).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Connected')).toBeTruthy();
    expect(within(row).getByText('Linux')).toBeTruthy();
    expect(within(row).getByText('Now')).toBeTruthy();
    const windows = screen.getByText('win-02').closest('[role="row"]') as HTMLElement;
    expect(within(windows).getByText('Disconnected')).toBeTruthy();
    expect(within(windows).getByText('Windows')).toBeTruthy();
    expect(within(windows).getByText(/ago$/)).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Delete db-01' })).toBeNull();
  });

  it('on a phone, the summary names its last-seen line: "Last seen: Never", not a bare "Never"', async () => {
    setWindowWidth(390);
    signInWith(['list-host']);
    const never = { ...agent('6f1c1f3e-8d7e-4c5b-9a51-000000000003', 'new-03', 1, false), last_seen: null };
    fakeServer({ 'GET api/agent': [200, { agents: [never] }] });
    renderPage();
    const row = (await screen.findByText('new-03')).closest('[role="row"]') as HTMLElement;
    const line = within(row).getByText(
      (_content, el) => el?.tagName === 'SPAN' && el.textContent === 'Last seen: Never',
    );
    expect(line).toBeTruthy();
    setWindowWidth(1440);
  });

  it('filters by the search box', async () => {
    signInWith(['list-host']);
    fakeServer({ 'GET api/agent': [200, { agents: AGENTS }] });
    renderPage();
    await screen.findByText('db-01');
    fireEvent.change(screen.getByLabelText('Search hosts'), { target: { value: 'win' } });
    expect(screen.queryByText('db-01')).toBeNull();
    expect(screen.getByText('win-02')).toBeTruthy();
  });

  it('explains how to add the first host when there is none', async () => {
    signInWith(['list-host']);
    fakeServer({ 'GET api/agent': [200, { agents: [] }] });
    renderPage();
    expect(await screen.findByText('No hosts yet')).toBeTruthy();
    expect(screen.getByText(/Choose Add host to get a registration key/)).toBeTruthy();
  });

  it('shows why the list failed, with a retry', async () => {
    signInWith(['list-host']);
    fakeServer({ 'GET api/agent': [503, { statusCode: 503, error: 'Unavailable', message: 'Database is starting' }] });
    renderPage();
    expect(await screen.findByText('Could not load this list: Database is starting')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('deletes a host after a confirmation naming it', async () => {
    const seen = fakeServer({ [`DELETE api/agent/${AGENTS[1]!.id}`]: [200, { message: 'Host Deleted' }] });
    const onClose = vi.fn();
    renderWithProviders(<DeleteAgentDialog agent={AGENTS[1]!} onClose={onClose} />);
    const confirm = screen.getByRole('dialog', { name: 'Delete host?' });
    expect(within(confirm).getByText(/Delete the host win-02\?/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete host' }));
    expect(await screen.findByText('Host Deleted')).toBeTruthy();
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([`DELETE api/agent/${AGENTS[1]!.id}`]);
    expect(onClose).toHaveBeenCalled();
  });
});

function renderPage() {
  renderWithProviders(<HostsPage />);
}

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeenRequest } from '../../../components/testing/render-with-providers';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { signIn, signOut } from '../../../lib/session';
import { SettingsPage } from './settings-page';

const MISSING_LICENSE = {
  status: 'missing',
  customer: null,
  expires: null,
  issued_at: null,
  license_id: null,
  max_agents: null,
  agents_used: 3,
  development: false,
};
const SECURITY = {
  api_limit_single_use: false,
  api_limit_freshness: false,
  api_limit_endpoints: [{ method: 'POST', path: '^/api/user$' }],
  effectiveTokenMaxAge: 3600,
};

function signInWith(permissions: string[]) {
  signIn('token', {
    email: 'ops@example.test',
    username: 'ops@example.test',
    name: null,
    roles: [{ name: 'ops', permissions }],
    effectivePermissions: permissions,
    authType: 'jwt_auth',
  });
}

const GENERAL = {
  allow_signup: false,
  smtp: { host: '', port: 587, secure: false, user: '', from: 'Gatehouse <gatehouse@localhost>', password_set: false },
  recording_input_capture: false,
  recording_retention_days: 0,
  idle_timeout_minutes: 0,
  signin_banner: '',
  public_url: '',
  ssh_handshake_timeout_seconds: 10,
  ssh_login_timeout_seconds: 60,
  ssh_max_auth_attempts: 6,
  ssh_max_unauthenticated_per_address: 10,
  ssh_max_unauthenticated: 100,
};

function renderAt(path: string): SeenRequest[] {
  const seen = fakeServer({
    'GET api/settings': [200, GENERAL],
    'POST api/settings': [200, { ...GENERAL, ssh_max_unauthenticated_per_address: 0, message: 'Configuration saved.' }],
    'GET api/license': [200, MISSING_LICENSE],
    'GET api/security': [200, SECURITY],
    'POST api/security': [200, { message: 'Configuration saved.', security: SECURITY }],
  });
  renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <SettingsPage />
    </MemoryRouter>,
  );
  return seen;
}

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('SettingsPage', () => {
  it('shows only the sections the permissions allow: no general or security settings without manage-settings', async () => {
    signInWith(['manage-license']);
    renderAt('/settings');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['License', 'Certificate', 'Versions']);
    // 'Missing License' without a licence (spec §3), and the install form for manage-license.
    expect(await screen.findByText('Missing License')).toBeTruthy();
    expect(screen.getByText('3 enrolled, no limit')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Install license' })).toBeTruthy();
  });

  it('shows the licence read-only to a holder of manage-kubernetes alone', async () => {
    signInWith(['manage-kubernetes']);
    renderAt('/settings');
    expect(await screen.findByText('Missing License')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Install license' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Single sign-on' })).toBeNull();
  });

  it('refuses a limited endpoint whose path does not compile, before anything is sent', async () => {
    signInWith(['manage-settings', 'manage-license']);
    const seen = renderAt('/settings?section=security');
    const path = await screen.findByLabelText('Path of endpoint 1');
    fireEvent.change(path, { target: { value: '(unclosed' } });
    expect(screen.getByText(/^Not a valid regular expression:/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);

    fireEvent.change(path, { target: { value: '^/api/user/' } });
    expect(screen.queryByText(/^Not a valid regular expression:/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Configuration saved.')).toBeTruthy();
    expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
      api_limit_single_use: false,
      api_limit_freshness: false,
      api_limit_endpoints: [{ method: 'POST', path: '^/api/user/' }],
      effectiveTokenMaxAge: 3600,
    });
  });

  it('shows the SSH login limits in General and saves a changed one with the rest, refusing a value out of bounds', async () => {
    signInWith(['manage-settings']);
    const seen = renderAt('/settings?section=general');
    const perAddress = await screen.findByLabelText<HTMLInputElement>('Per address');
    expect(perAddress.value).toBe('10');
    expect(screen.getByLabelText<HTMLInputElement>('Sign-in timeout').value).toBe('60');
    fireEvent.change(screen.getByLabelText('In total'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter a whole number from 1 to 100000')).toBeTruthy();
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);

    fireEvent.change(screen.getByLabelText('In total'), { target: { value: '100' } });
    fireEvent.change(perAddress, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Configuration saved.')).toBeTruthy();
    expect(seen.find((request) => request.method === 'POST')?.body).toMatchObject({
      ssh_handshake_timeout_seconds: 10,
      ssh_login_timeout_seconds: 60,
      ssh_max_auth_attempts: 6,
      ssh_max_unauthenticated_per_address: 0,
      ssh_max_unauthenticated: 100,
    });
  });
});

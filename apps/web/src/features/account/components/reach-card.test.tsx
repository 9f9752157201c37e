// @vitest-environment happy-dom
import type { MyAccess } from '@gatehouse/contracts';
import { cleanup, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { ReachCard } from './reach-card';
import { SshKeysCard } from './ssh-keys-card';

const EMAIL = 'rita@example.test';
const ACCESS: MyAccess = {
  email: EMAIL,
  may_open: true,
  gateway: { host: 'gw.example.test', port: 12222 },
  server_url: 'https://gw.example.test',
  contacts: ['admin@example.test'],
  entries: [
    {
      definition: { id: 'd1', name: 'web shell', type: 'ssh' },
      host: { id: 'a1', hostname: 'web-01', state: 'connected' },
      port: 22,
      ssh_login: 'deploy',
      uses: ['shell', 'exec', 'sftp'],
      via: { direct: true, groups: [] },
      commands: { ssh: 'ssh -p 12222 rita@example.test@web-01@gw.example.test' },
    },
  ],
};

function renderCards(access: MyAccess) {
  fakeServer({
    'GET api/me/access': [200, access],
    [`GET api/user/${EMAIL}/reach`]: [200, { groups: [], agents: [] }],
    'GET api/user/me/ssh-keys': [200, { keys: [] }],
  });
  return renderWithProviders(
    <MemoryRouter>
      <ReachCard email={EMAIL} />
      <SshKeysCard email={EMAIL} />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('My account agrees with My access', () => {
  it('lists a host a definition admits the user to directly, though they are in no group', async () => {
    renderCards(ACCESS);
    expect(await screen.findByText('web-01')).toBeTruthy();
    expect(screen.getByText('SSH shell')).toBeTruthy();
    expect(screen.queryByText(/not in any group/)).toBeNull();
    expect(screen.getByRole('link', { name: 'How to connect' }).getAttribute('href')).toBe('/access');
  });

  it('says the user reaches nothing only when My access says so, with whom to ask', async () => {
    renderCards({ ...ACCESS, entries: [] });
    expect(await screen.findByText(/You cannot reach any host yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'admin@example.test' })).toBeTruthy();
  });

  it('shows the ssh example with the gateway’s real address and port, not 2222', async () => {
    renderCards(ACCESS);
    expect(await screen.findByText(`ssh -p 12222 ${EMAIL}@<agent>@gw.example.test`)).toBeTruthy();
    expect(document.body.textContent).not.toContain('-p 2222');
  });
});

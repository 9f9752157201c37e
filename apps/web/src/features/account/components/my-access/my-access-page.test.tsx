// @vitest-environment happy-dom
import type { MyAccess } from '@gatehouse/contracts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../../components/testing/render-with-providers';
import { MyAccessPage } from './my-access-page';

const SSH = 'ssh -p 12222 rita@example.test@web-01@gw.example.test';
const ACCESS: MyAccess = {
  email: 'rita@example.test',
  may_open: true,
  gateway: { host: 'gw.example.test', port: 12222 },
  server_url: 'https://gw.example.test',
  contacts: ['admin@example.test'],
  entries: [
    {
      definition: { id: 'd-ssh', name: 'web shell', type: 'ssh' },
      host: { id: 'a1', hostname: 'web-01', state: 'connected' },
      port: 22,
      ssh_login: 'deploy',
      uses: ['shell', 'exec', 'sftp', 'forward'],
      via: { direct: true, groups: ['ops'] },
      commands: {
        ssh: SSH,
        scp: 'scp -P 12222 FILE rita@example.test@web-01@gw.example.test:',
        sftp: 'sftp -P 12222 rita@example.test@web-01@gw.example.test',
        ssh_config:
          'Host gatehouse-web-01\n    HostName gw.example.test\n    Port 12222\n    User rita@example.test@web-01\n',
        ssh_alias: 'gatehouse-web-01',
      },
    },
    {
      definition: { id: 'd-rdp', name: 'win desktop', type: 'rdp' },
      host: { id: 'a2', hostname: 'win-01', state: 'disconnected' },
      port: 3389,
      ssh_login: null,
      uses: ['rdp'],
      via: { direct: false, groups: ['designers'] },
      commands: {
        tunnel: "npx gatehouse tunnel 'win desktop' --server https://gw.example.test --email rita@example.test",
        desktop_path: '/desktop/d-rdp',
      },
    },
  ],
};

function renderPage(answer: [number, unknown]) {
  fakeServer({ 'GET api/me/access': answer });
  return renderWithProviders(
    <MemoryRouter>
      <MyAccessPage />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('My access', () => {
  it('shows each host with its kind, state and how the user is admitted, and the server’s commands', async () => {
    renderPage([200, ACCESS]);
    const web = await screen.findByRole('article', { name: 'web-01' });
    expect(within(web).getByText('SSH shell')).toBeTruthy();
    expect(within(web).getByText('Online')).toBeTruthy();
    expect(within(web).getByText('Port forwarding allowed')).toBeTruthy();
    expect(web.textContent).toContain('Granted to you directly · Through the group ops');
    expect(within(web).getByText(SSH)).toBeTruthy();
    expect(within(web).getByRole('group', { name: /~\/\.ssh\/config.*ssh gatehouse-web-01/ }).textContent).toContain(
      'User rita@example.test@web-01',
    );
    expect(screen.getByText('gw.example.test:12222')).toBeTruthy();
    const win = screen.getByRole('article', { name: 'win-01' });
    expect(within(win).getByText('Offline')).toBeTruthy();
    expect(win.textContent).toContain('Through the group designers');
    expect(
      within(win).getByRole('link', { name: 'Open the desktop of win-01 in the browser' }).getAttribute('href'),
    ).toBe('/desktop/d-rdp');
    expect(within(win).queryByText(/^ssh /)).toBeNull();
  });

  it('copies exactly the command its button names', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage([200, ACCESS]);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy the ssh command for web-01' }));
    expect(await screen.findByText('Copied to the clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(SSH);
    fireEvent.click(screen.getByRole('button', { name: 'Copy the tunnel command for win-01' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenLastCalledWith(ACCESS.entries[1]?.commands.tunnel));
  });

  it('greets a user without reach with whom to ask, not an error', async () => {
    renderPage([200, { ...ACCESS, entries: [], contacts: ['admin@example.test', 'lead@example.test'] }]);
    expect(await screen.findByRole('heading', { name: 'You cannot reach any host yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'lead@example.test' }).getAttribute('href')).toBe(
      'mailto:lead@example.test',
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: 'Meanwhile, add your SSH key' }).getAttribute('href')).toBe('/account');
  });

  it('says so when no role lets the user open sessions, with whom to ask', async () => {
    renderPage([200, { ...ACCESS, may_open: false }]);
    expect(await screen.findByText('Your roles do not let you connect yet')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'admin@example.test' })).toHaveLength(1);
  });

  it('shows the server’s reason with a retry when the call fails', async () => {
    renderPage([503, { message: 'The database is not answering' }]);
    expect(await screen.findByText(/The database is not answering/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /retry|try again/i })).toBeTruthy();
  });
});

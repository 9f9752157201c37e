// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { signIn, signOut } from '../../../lib/session';
import { SettingsPage } from './settings-page';

const FINGERPRINT = 'SHA256:3q2+7wAbCdEfGhIjKlMnOpQrStUvWxYz0123456789a';
const KEY = {
  fingerprint: FINGERPRINT,
  public_key: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
  source: 'file',
  with_data: false,
  earlier_keys: [
    {
      fingerprint: 'SHA256:OLDoldOLDoldOLDoldOLDoldOLDoldOLDoldOLDold0',
      source: 'data-folder',
      first_used_at: '2026-01-02T03:04:05.000Z',
      retired_at: '2026-11-20T10:00:00.000Z',
    },
  ],
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

function renderWith(answer: object) {
  const seen = fakeServer({ 'GET api/signing-key': [200, answer] });
  renderWithProviders(
    <MemoryRouter initialEntries={['/settings?section=signatures']}>
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

describe('Recording signatures in Settings', () => {
  it('shows the fingerprint with a copy button, where the key is kept and the keys used before', async () => {
    signInWith(['manage-license', 'list-recording']);
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWith(KEY);
    expect(await screen.findByDisplayValue(FINGERPRINT)).toBeTruthy();
    expect(screen.getByText('In the file named by GATEHOUSE_RECORDING_KEY_FILE')).toBeTruthy();
    expect(screen.queryByText(/kept with the data folder/)).toBeNull();
    expect(screen.getByText('SHA256:OLDoldOLDoldOLDoldOLDoldOLDoldOLDoldOLDold0')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Fingerprint' });
    fireEvent.click(within(group).getByRole('button', { name: 'Copy' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(FINGERPRINT));
    fireEvent.click(screen.getByRole('button', { name: 'Copy the public key (PEM)' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(KEY.public_key));
  });

  it('warns when the key is kept with the data folder, and says how to make one', async () => {
    signInWith(['manage-settings', 'manage-license']);
    renderWith({ ...KEY, source: 'data-folder', with_data: true, earlier_keys: [] });
    expect(await screen.findByText(/kept with the data folder: whoever can write the folder/)).toBeTruthy();
    expect(screen.getByText('openssl genpkey -algorithm ed25519 -out recording-key.pem')).toBeTruthy();
    expect(screen.getByText('No other key has signed recordings here.')).toBeTruthy();
  });

  it('is not offered without list-recording or manage-settings', () => {
    signInWith(['manage-license']);
    const seen = renderWith(KEY);
    expect(screen.queryByRole('tab', { name: 'Recording signatures' })).toBeNull();
    expect(seen.filter((request) => request.url.includes('signing-key'))).toEqual([]);
  });
});

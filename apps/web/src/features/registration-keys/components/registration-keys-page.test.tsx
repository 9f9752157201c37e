// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { signIn, signOut } from '../../../lib/session';
import { RegistrationKeysPage } from './registration-keys-page';

const HOUR = 3_600_000;
const key = (description: string, fields: { expiresIn: number; uses: number; uses_left: number }, n: number) => ({
  uuid: `6f1c1f3e-8d7e-4c5b-9a51-1d2f3e4a5b6${n}`,
  description,
  created: '2026-01-01T00:00:00.000Z',
  created_by: 'admin@example.test',
  last_used_at: null,
  expires_at: new Date(Date.now() + fields.expiresIn).toISOString(),
  uses: fields.uses,
  uses_left: fields.uses_left,
});
const KEYS = [
  key('Berlin site', { expiresIn: 5 * HOUR + 60_000, uses: 10, uses_left: 7 }, 1),
  key('Old lab', { expiresIn: -3 * 24 * HOUR, uses: 1, uses_left: 1 }, 2),
  key('Paris site', { expiresIn: 48 * HOUR, uses: 2, uses_left: 0 }, 3),
];

function signInAs(role: string) {
  signIn('token', {
    email: 'a@example.test',
    username: 'a@example.test',
    name: null,
    roles: [{ name: role, permissions: ['list-api-key'] }],
    effectivePermissions: ['list-api-key'],
    authType: 'jwt_auth',
  });
}

/** The grid row that holds a text. */
const rowOf = async (text: string) => {
  const cell = await screen.findByText(text);
  const row = cell.closest('[role="row"]');
  if (!(row instanceof HTMLElement)) throw new Error(`no row holds ${text}`);
  return row;
};

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('RegistrationKeysPage', () => {
  it('shows when each key expires and how many uses it has left (the phone’s summary names the uses), marking expired and used-up keys', async () => {
    signInAs('admin');
    fakeServer({ 'GET api/apikey': [200, { keys: KEYS }] });
    renderWithProviders(<RegistrationKeysPage />);

    const berlin = await rowOf('Berlin site');
    expect(within(berlin).getByText('Expires in 5 hours')).toBeTruthy();
    expect(within(berlin).getByText('Uses: 7 of 10 left')).toBeTruthy();
    expect(within(berlin).queryByText('Expired')).toBeNull();
    expect(within(berlin).queryByText('Used up')).toBeNull();

    const old = await rowOf('Old lab');
    expect(within(old).getByText('Expired 3 days ago')).toBeTruthy();
    expect(within(old).getByText('Expired')).toBeTruthy();

    const paris = await rowOf('Paris site');
    expect(within(paris).getByText('Expires in 2 days')).toBeTruthy();
    expect(within(paris).getByText('Uses: 0 of 2 left')).toBeTruthy();
    expect(within(paris).getByText('Used up')).toBeTruthy();
  });

  it('generates a key with the server’s defaults: one host within 24 hours', async () => {
    signInAs('admin');
    const seen = fakeServer({
      'GET api/apikey': [200, { keys: [] }],
      'POST api/apikey': [201, { ...KEYS[0], key: 'ghk_secret', message: 'Registration key created.' }],
    });
    renderWithProviders(<RegistrationKeysPage />);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Generate key' }))[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Generate registration key' });
    expect(within(dialog).getByLabelText('Valid for')).toHaveProperty('value', '24');
    expect(within(dialog).getByLabelText('Unit').textContent).toBe('Hours');
    expect(within(dialog).getByLabelText('Hosts it may enrol')).toHaveProperty('value', '1');
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Berlin site' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));

    expect(await screen.findByLabelText('Registration key')).toHaveProperty('value', 'ghk_secret');
    expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
      description: 'Berlin site',
      expires_in_hours: 24,
      uses: 1,
    });
  });

  it('sends the validity and number of hosts chosen, and refuses numbers the server would', async () => {
    signInAs('admin');
    const seen = fakeServer({
      'GET api/apikey': [200, { keys: KEYS }],
      'POST api/apikey': [201, { ...KEYS[0], key: 'ghk_secret', message: 'Registration key created.' }],
    });
    renderWithProviders(<RegistrationKeysPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Generate key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate registration key' });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'CI runners' } });
    fireEvent.change(within(dialog).getByLabelText('Hosts it may enrol'), { target: { value: '10001' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('Unit'));
    fireEvent.click(await screen.findByRole('option', { name: 'Days' }));
    fireEvent.change(within(dialog).getByLabelText('Valid for'), { target: { value: '400' } });
    expect(within(dialog).getByText('A whole number of days from 1 to 365 (a year)')).toBeTruthy();
    expect(within(dialog).getByText('A whole number from 1 to 10,000')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Valid for'), { target: { value: '30' } });
    fireEvent.change(within(dialog).getByLabelText('Hosts it may enrol'), { target: { value: '40' } });
    expect(within(dialog).getByText(/^Stops working on /)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
        description: 'CI runners',
        expires_in_hours: 720,
        uses: 40,
      }),
    );
  });

  it('tells a non-administrator who manages keys, without asking the server for them', () => {
    signInAs('operator');
    const seen = fakeServer({});
    renderWithProviders(<RegistrationKeysPage />);
    expect(screen.getByText('Only administrators manage registration keys')).toBeTruthy();
    expect(seen).toEqual([]);
  });
});

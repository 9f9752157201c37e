// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../lib/session';
import { STORAGE_KEYS } from '../lib/storage';
import { fakeServer, renderWithProviders } from './testing/render-with-providers';
import { MockDataSwitch } from './mock-data-switch';

const user = {
  email: 'ada@acme.example',
  username: 'ada@acme.example',
  name: 'Ada',
  roles: [],
  effectivePermissions: [],
  authType: 'jwt_auth' as const,
};

let reload: ReturnType<typeof vi.fn<() => void>>;
const toggle = () => screen.getByRole<HTMLInputElement>('switch', { name: 'Use Mock Data' });

beforeEach(() => {
  localStorage.clear();
  reload = vi.fn<() => void>();
  vi.spyOn(window.location, 'reload').mockImplementation(reload);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('MockDataSwitch', () => {
  it('is a labelled switch showing the stored flag', () => {
    localStorage.setItem(STORAGE_KEYS.useMockData, 'true');
    renderWithProviders(<MockDataSwitch />);
    expect(toggle().checked).toBe(true);
  });

  it('is off without the flag, and off for any value but true', () => {
    localStorage.setItem(STORAGE_KEYS.useMockData, 'yes');
    renderWithProviders(<MockDataSwitch />);
    expect(toggle().checked).toBe(false);
  });

  it('stores the flag, signs out of the server that issued the session, and reloads', async () => {
    const seen = fakeServer({ 'POST api/logout': [200, { message: 'Signed out' }] });
    signIn('real-token', user);
    renderWithProviders(<MockDataSwitch />);
    fireEvent.click(toggle());
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem(STORAGE_KEYS.useMockData)).toBe('true');
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST api/logout']);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(toggle().disabled).toBe(true);
  });

  it('turns mock data off and reloads, calling nobody when signed out', async () => {
    const seen = fakeServer({});
    localStorage.setItem(STORAGE_KEYS.useMockData, 'true');
    renderWithProviders(<MockDataSwitch />);
    fireEvent.click(toggle());
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem(STORAGE_KEYS.useMockData)).toBe('false');
    expect(seen).toEqual([]);
  });
});

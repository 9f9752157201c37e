// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn, signOut } from '../lib/session';
import { STORAGE_KEYS } from '../lib/storage';
import { fakeServer, renderWithProviders } from './testing/render-with-providers';
import { MockDataBanner } from './mock-data-banner';

let reload: ReturnType<typeof vi.fn<() => void>>;
const banner = () => screen.getByRole('complementary', { name: 'Mock data' });

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(STORAGE_KEYS.useMockData, 'true');
  reload = vi.fn<() => void>();
  vi.spyOn(window.location, 'reload').mockImplementation(reload);
});

afterEach(() => {
  cleanup();
  signOut();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('MockDataBanner', () => {
  it('says the data is not the server’s, and on the sign-in screen that any email and password sign in', () => {
    renderWithProviders(<MockDataBanner />);
    expect(within(banner()).getByText('Mock data — not your server')).toBeTruthy();
    expect(within(banner()).getByText('Sign in with any email and any password.')).toBeTruthy();
  });

  it('drops the sign-in hint once signed in', () => {
    signIn('mock-session.YUBiLmM', {
      email: 'a@b.c',
      username: 'a@b.c',
      name: null,
      roles: [],
      effectivePermissions: [],
      authType: 'jwt_auth',
    });
    renderWithProviders(<MockDataBanner />);
    expect(within(banner()).queryByText('Sign in with any email and any password.')).toBeNull();
  });

  it('says why the mock API did not start, in short, with the whole reason as its title', () => {
    renderWithProviders(<MockDataBanner failure={`[MSW] No service workers here. ${'Details. '.repeat(30)}`} />);
    const text = within(banner()).getByText(/could not start \(No service workers here\. Details/);
    expect(text.textContent).toMatch(/…\): you are seeing your server\.$/);
    expect(text.getAttribute('title')).toContain('[MSW] No service workers here.');
  });

  it('turns mock data off and reloads', async () => {
    fakeServer({});
    renderWithProviders(<MockDataBanner />);
    fireEvent.click(within(banner()).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem(STORAGE_KEYS.useMockData)).toBe('false');
  });
});

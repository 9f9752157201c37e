import { PERMISSIONS } from '@gatehouse/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import '../../../lib/i18n';
import { SnackbarProvider } from '../../../components/snackbar/snackbar-provider';
import { type FakeAnswer, fakeServer } from '../../../components/testing/render-with-providers';
import type { StoredUser } from '../../../lib/session';
import { signIn } from '../../../lib/session';
import { ThemeSettingsProvider } from '../../providers/theme-settings-provider';
import type { ThemeSettings } from '../../theme/theme-settings';
import { DEFAULT_THEME_SETTINGS } from '../../theme/theme-settings';
import { THEME_SETTINGS_KEY } from '../../theme/theme-storage';
import { RootLayout } from '../root-layout';
import { setWindowWidth } from '../../../components/testing/window-width';

/** An administrator holding every permission, with a name and two roles. */
export const ADMIN: StoredUser = {
  email: 'ada@example.test',
  username: 'ada@example.test',
  name: 'Ada Lovelace',
  roles: [
    { name: 'admin', permissions: [] },
    { name: 'auditor', permissions: [] },
  ],
  effectivePermissions: [...PERMISSIONS],
  authType: 'jwt_auth',
};

/** A plain user: the role user only, holding none of the permissions the catalogue lists. */
export const PLAIN_USER: StoredUser = {
  email: 'grace@example.test',
  username: 'grace@example.test',
  name: 'Grace Kim',
  roles: [{ name: 'user', permissions: [] }],
  effectivePermissions: ['create-tunnel'],
  authType: 'jwt_auth',
};

/** Counts, metadata and security settings as the server answers them. */
export const SERVER: Record<string, FakeAnswer> = {
  'GET api/navigation/counts': [200, { totalSessions: 1234, liveSessions: 2, totalUsers: 7, totalHosts: 3 }],
  'GET api/metadata': [200, { version: '2.0.0', buildNumber: '42', buildTag: 'e2e' }],
  'GET api/security': [
    200,
    { api_limit_single_use: true, api_limit_freshness: false, effectiveTokenMaxAge: 3600, api_limit_endpoints: [] },
  ],
};

export { setWindowWidth };

/**
 * Renders the signed-in shell (RootLayout) on a memory router with three small screens, the
 * given saved theme settings and window width, against a fake server.
 */
export function renderShell(
  options: { path?: string; settings?: Partial<ThemeSettings>; width?: number; user?: StoredUser } = {},
) {
  setWindowWidth(options.width ?? 1400);
  localStorage.setItem(THEME_SETTINGS_KEY, JSON.stringify({ ...DEFAULT_THEME_SETTINGS, ...options.settings }));
  signIn('token', options.user ?? ADMIN);
  const seen = fakeServer(SERVER);
  const screenRoute = (path: string, title: string) => ({ path, element: <h1>{title}</h1> });
  const router = createMemoryRouter(
    [
      {
        path: '/',
        Component: RootLayout,
        children: [
          screenRoute('recordings', 'Sessions screen'),
          screenRoute('users', 'Users screen'),
          screenRoute('account', 'Account screen'),
        ],
      },
    ],
    { initialEntries: [options.path ?? '/recordings'] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <ThemeSettingsProvider>
      <QueryClientProvider client={client}>
        <SnackbarProvider>
          <RouterProvider router={router} />
        </SnackbarProvider>
      </QueryClientProvider>
    </ThemeSettingsProvider>,
  );
  return { router, seen, view };
}

import { Outlet, useLocation } from 'react-router';
import { useSession } from '../../lib/use-session';
import { AuthLayout } from './auth-layout';
import { HeaderUserLayout } from './header-user/header-user-layout';
import { useQuerySettings } from './use-query-settings';

/**
 * Picks the frame: signed out (and on /signout, which outlives the session) the auth layout;
 * signed in the header-user layout, which this release uses for every navigation style.
 */
export function RootLayout() {
  const { user } = useSession();
  const { pathname } = useLocation();
  useQuerySettings();
  if (!user || pathname.toLowerCase() === '/signout') {
    return (
      <AuthLayout>
        <Outlet />
      </AuthLayout>
    );
  }
  return (
    <HeaderUserLayout>
      <Outlet />
    </HeaderUserLayout>
  );
}

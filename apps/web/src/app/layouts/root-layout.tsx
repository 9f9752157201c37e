import type { ReactNode } from 'react';
import { Suspense, lazy } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useSession } from '../../lib/use-session';
import { useThemeSettings } from '../providers/theme-settings-context';
import type { NavStyle } from '../theme/theme-settings';
import { PageLoading } from '../router/page-loading';
import { AuthLayout } from './auth-layout';
import { RouteTransition } from './shared/route-transition';
import { useQuerySettings } from './use-query-settings';
import { VerticalLayout } from './vertical/vertical-layout';
import { isVerticalNavStyle } from './vertical/vertical-variants';

// The vertical layouts (the default header-user among them) share one shell in the initial
// bundle; the bit-bucket and horizontal shells load when chosen.
const BitBucketLayout = lazy(() =>
  import('./bit-bucket/bit-bucket-layout').then((module) => ({ default: module.BitBucketLayout })),
);
const HorizontalLayout = lazy(() =>
  import('./horizontal/horizontal-layout').then((module) => ({ default: module.HorizontalLayout })),
);

/** The layout of a navigation style (spec §2.5) around the content. */
function ChosenLayout({ navStyle, children }: { navStyle: NavStyle; children: ReactNode }) {
  if (isVerticalNavStyle(navStyle)) return <VerticalLayout navStyle={navStyle}>{children}</VerticalLayout>;
  return (
    <Suspense fallback={<PageLoading />}>
      {navStyle === 'bit-bucket' ? (
        <BitBucketLayout>{children}</BitBucketLayout>
      ) : (
        <HorizontalLayout navStyle={navStyle}>{children}</HorizontalLayout>
      )}
    </Suspense>
  );
}

/** Paths framed like sign-in even while signed in: sign-out outlives the session, and the single
 * sign-on screens run in the re-authorization popup. */
const AUTH_FRAMED = new Set(['/signout', '/sso', '/ssoauth']);

/**
 * Picks the frame: signed out (and on AUTH_FRAMED paths) the auth layout;
 * signed in the layout of the navigation style setting, the screen inside it with the route
 * transition setting.
 */
export function RootLayout() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const { settings } = useThemeSettings();
  useQuerySettings();
  if (!user || AUTH_FRAMED.has(pathname.toLowerCase())) {
    return (
      <AuthLayout>
        <Outlet />
      </AuthLayout>
    );
  }
  return (
    <ChosenLayout navStyle={settings.navStyle}>
      <RouteTransition />
    </ChosenLayout>
  );
}

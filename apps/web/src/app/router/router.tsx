import { Suspense } from 'react';
import { createHashRouter, Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { ErrorScreen } from '../../components/error-screen';
import { FEATURES } from '../features';
import { RootLayout } from '../layouts/root-layout';
import { PageLoading } from './page-loading';
import { RouteGuard, StartRedirect } from './route-guard';
import { NOT_FOUND_PATH } from './route-rules';

/** Every route of the features, each behind its guard; lazy screens load inside the layout. */
function featureRoutes(): RouteObject[] {
  return FEATURES.flatMap((feature) =>
    feature.routes.map(({ path, Component, access, permissions }) => ({
      path,
      element: (
        <RouteGuard access={access} permissions={permissions}>
          <Suspense fallback={<PageLoading />}>
            <Component />
          </Suspense>
        </RouteGuard>
      ),
    })),
  );
}

/** The route table: feature routes, the SSO redirects, and unknown paths to the 404 page. */
export function appRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      Component: RootLayout,
      ErrorBoundary: ErrorScreen,
      children: [
        { index: true, Component: StartRedirect },
        ...featureRoutes(),
        { path: 'sso/token', element: <Navigate to="/sso" replace /> },
        { path: 'saml/acs', element: <Navigate to="/sso" replace /> },
        { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
      ],
    },
  ];
}

/** The hash router (spec §2: slash hash type, /#/signin). */
export function createAppRouter() {
  return createHashRouter(appRoutes());
}

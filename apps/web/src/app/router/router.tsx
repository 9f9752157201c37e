import { Suspense } from 'react';
import { HashRouter, Navigate, useLocation, useRoutes } from 'react-router';
import type { RouteObject } from 'react-router';
import { ErrorBoundary } from '../../components/error-boundary';
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

const ROUTES = appRoutes();

/** The route table rendered; a render error shows the error screen until the path changes. */
function AppRoutes() {
  const { pathname } = useLocation();
  return <ErrorBoundary resetKey={pathname}>{useRoutes(ROUTES)}</ErrorBoundary>;
}

/**
 * The hash router (spec §2: slash hash type, /#/signin), declarative: the console loads no route
 * data through the router, and the data router's code was 16 kB gzip of the first load (issue 19).
 */
export function AppRouter() {
  return (
    <HashRouter>
      <AppRoutes />
    </HashRouter>
  );
}

import type { Permission } from '@gatehouse/contracts';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { RouteAccess } from '../../lib/feature';
import { hasPermission } from '../../lib/permissions';
import { useMustEnrol } from '../../lib/two-factor-gate';
import { useSession } from '../../lib/use-session';
import { rememberedPath } from './initial-path';
import { deniedPath, signedInStartPath } from './route-rules';

/** The page where a second factor is set up (features/account). */
export const ENROL_PATH = '/account/two-factor';

/** Applies the routing rules of spec §2.4 to one route. */
export function RouteGuard(props: {
  access: RouteAccess;
  permissions?: readonly Permission[] | undefined;
  children: ReactNode;
}) {
  const { user } = useSession();
  const mustEnrol = useMustEnrol();
  const { pathname } = useLocation();
  switch (props.access) {
    case 'protected':
      if (!user) return <Navigate to="/signin" replace />;
      // A role requires a second factor: nothing else opens until one is set up (issue 20).
      if (mustEnrol && pathname !== ENROL_PATH) return <Navigate to={ENROL_PATH} replace />;
      if (!hasPermission(user, props.permissions)) return <Navigate to={deniedPath(user)} replace />;
      return props.children;
    case 'guest':
      if (user) return <Navigate to={signedInStartPath(user, rememberedPath())} replace />;
      return props.children;
    case 'signout':
    case 'public':
      // /signout always signs out (the issue's rule wins over spec §2.4's redirect of /signout).
      return props.children;
  }
}

/** The index route: signed-in users go to their start page, others to /signin. */
export function StartRedirect() {
  const { user } = useSession();
  return <Navigate to={user ? signedInStartPath(user, rememberedPath()) : '/signin'} replace />;
}

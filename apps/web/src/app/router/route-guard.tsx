import type { Permission } from '@gatehouse/contracts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { RouteAccess } from '../../lib/feature';
import { hasPermission } from '../../lib/permissions';
import { useSession } from '../../lib/use-session';
import { rememberedPath } from './initial-path';
import { deniedPath, signedInStartPath } from './route-rules';

/** Applies the routing rules of spec §2.4 to one route. */
export function RouteGuard(props: {
  access: RouteAccess;
  permissions?: readonly Permission[] | undefined;
  children: ReactNode;
}) {
  const { user } = useSession();
  switch (props.access) {
    case 'protected':
      if (!user) return <Navigate to="/signin" replace />;
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

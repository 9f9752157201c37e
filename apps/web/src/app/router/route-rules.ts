import type { Permission } from '@gatehouse/contracts';
import type { PermissionHolder } from '../../lib/permissions';
import { hasPermission } from '../../lib/permissions';
import { MY_ACCESS_PATH } from '../../features/account/feature';
import { FEATURES } from '../features';

/** Where a signed-in user starts (spec §2.1: the initial page after login). */
export const START_PATH = '/recordings';
/** Where a user without the route's permission goes (spec §2.1 fallback page), when they may see it. */
export const FALLBACK_PATH = '/hostsDashboard';
/** Where everyone else starts and lands (issue 20): a page every signed-in user may see. */
export { MY_ACCESS_PATH };
/** Where unknown paths go. */
export const NOT_FOUND_PATH = '/error-pages/error-404';

const AUTH_PATHS = [
  '/',
  '/signin',
  '/signup',
  '/signout',
  '/confirm-signup',
  '/verify-email',
  '/reset-password',
  '/forget-password',
  '/ssoauth',
  '/sso',
  '/sso/token',
  '/saml/acs',
];

function normalise(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '/';
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (trimmed || '/').toLowerCase();
}

const PROTECTED = new Map<string, readonly Permission[]>(
  FEATURES.flatMap((feature) => feature.routes)
    .filter((route) => route.access === 'protected')
    .map((route) => [normalise(`/${route.path}`), route.permissions ?? []]),
);

/** True for the sign-in, account, SSO and error paths (never remembered, spec §2.4). */
export function isAuthOrErrorPath(path: string): boolean {
  const pathname = normalise(path);
  return AUTH_PATHS.includes(pathname) || pathname.startsWith('/error-pages/');
}

/** The permissions a product path needs, or undefined when it is not a product path. */
export function routePermissions(path: string): readonly Permission[] | undefined {
  return PROTECTED.get(normalise(path));
}

/** True when the path is a product screen the user may open. */
export function isPermittedProductPath(user: PermissionHolder | null, path: string): boolean {
  const required = routePermissions(path);
  return required !== undefined && hasPermission(user, required);
}

/** The default start: /recordings, else /hostsDashboard for those who may see it, else My access. */
export function defaultStartPath(user: PermissionHolder | null): string {
  if (isPermittedProductPath(user, START_PATH)) return START_PATH;
  return isPermittedProductPath(user, FALLBACK_PATH) ? FALLBACK_PATH : MY_ACCESS_PATH;
}

/** Where a signed-in user on /, /signin, /signup or /signout goes (spec §2.4). */
export function signedInStartPath(user: PermissionHolder | null, remembered: string | null): string {
  if (remembered && !isAuthOrErrorPath(remembered) && isPermittedProductPath(user, remembered)) return remembered;
  return defaultStartPath(user);
}

/**
 * Where a signed-in user without the route's permission goes: the fallback if allowed, else My
 * access (open to everyone signed in), never an error page.
 */
export function deniedPath(user: PermissionHolder | null): string {
  if (isPermittedProductPath(user, FALLBACK_PATH)) return FALLBACK_PATH;
  return isPermittedProductPath(user, MY_ACCESS_PATH) ? MY_ACCESS_PATH : NOT_FOUND_PATH;
}

import type { ADMIN_ROLE, Permission, Routes } from '@gatehouse/contracts';

/** The admin role's name (typed against the contract, so no contract code enters the initial bundle). */
const ADMIN: typeof ADMIN_ROLE = 'admin';

/** The parts of a user the permission check reads. */
export interface PermissionHolder {
  roles: readonly { name: string }[];
  effectivePermissions: readonly string[];
}

/**
 * Spec §5 permission check. Allowed when nothing is required or nobody is signed in (the route
 * guard handles that case); otherwise one listed permission must be among the user's effective
 * permissions, or among the role names when the user has no permissions. A user with neither
 * permissions nor roles is allowed. This only hides features; the server enforces access.
 */
export function hasPermission(user: PermissionHolder | null, required: readonly Permission[] | undefined): boolean {
  if (!required || required.length === 0 || !user) return true;
  const held: readonly string[] =
    user.effectivePermissions.length > 0 ? user.effectivePermissions : user.roles.map((role) => role.name);
  if (held.length === 0) return true;
  return required.some((permission) => held.includes(permission));
}

/**
 * True for holders of the admin role. Some calls are the admin role's alone (registration keys,
 * the mail outbox), whatever permissions another role lists; the server enforces it.
 */
export function isAdmin(user: Pick<PermissionHolder, 'roles'> | null): boolean {
  return user?.roles.some((role) => role.name === ADMIN) ?? false;
}

/**
 * Who may read the security settings on screen (the Settings screen's section and the sidebar's
 * security block): the permission the server checks for them (POST /api/security, GET
 * /api/settings). GET /api/security answers everyone signed in only because the console needs
 * its flags to make calls; a plain user is not shown them. Typed as the contract's list, so a
 * change there fails this build.
 */
export const SECURITY_SETTINGS_PERMISSIONS: Routes['saveSecurity']['access']['anyOf'] = ['manage-settings'];

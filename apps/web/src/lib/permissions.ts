import type { Permission } from '@gatehouse/contracts';

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

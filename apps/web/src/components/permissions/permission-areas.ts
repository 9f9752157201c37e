import type { Permission } from '@gatehouse/contracts';

/** Parts of the console permissions belong to, in the order pickers list them. */
export const PERMISSION_AREAS = [
  'sessions',
  'agents',
  'tunnels',
  'identity',
  'roles',
  'keys',
  'system',
  'other',
] as const;

/** One area; 'other' holds a permission this console does not know yet. */
export type PermissionArea = (typeof PERMISSION_AREAS)[number];

// Typed over every permission, so a permission added to the catalogue must be placed here.
const AREA_OF: Record<Permission, PermissionArea> = {
  'list-recording': 'sessions',
  'terminate-session': 'sessions',
  'manage-legal-hold': 'sessions',
  'list-host': 'agents',
  'modify-agent-config': 'agents',
  'list-all-tunnel-definitions': 'tunnels',
  'create-tunnel-definition': 'tunnels',
  'modify-tunnel-definition': 'tunnels',
  'create-tunnel': 'tunnels',
  'list-user': 'identity',
  'modify-user': 'identity',
  'list-group': 'identity',
  'modify-group': 'identity',
  'list-user-role': 'roles',
  'create-role': 'roles',
  'modify-role': 'roles',
  'modify-user-role': 'roles',
  'list-api-key': 'keys',
  'manage-settings': 'system',
  'manage-sso-config': 'system',
  'manage-license': 'system',
  'manage-kubernetes': 'system',
  'list-audit-log': 'system',
};

/** The area a permission belongs to. */
export function permissionArea(permission: string): PermissionArea {
  return Object.hasOwn(AREA_OF, permission) ? AREA_OF[permission as Permission] : 'other';
}

/** Permissions ordered by area, keeping their given order within an area. */
export function sortByArea(permissions: readonly string[]): string[] {
  const rank = (p: string) => PERMISSION_AREAS.indexOf(permissionArea(p));
  return permissions
    .map((permission, index) => ({ permission, index }))
    .sort((a, b) => rank(a.permission) - rank(b.permission) || a.index - b.index)
    .map((entry) => entry.permission);
}

/** Permissions grouped by area, areas in display order, empty areas left out. */
export function groupByArea(permissions: readonly string[]): { area: PermissionArea; permissions: string[] }[] {
  return PERMISSION_AREAS.map((area) => ({
    area,
    permissions: permissions.filter((p) => permissionArea(p) === area),
  })).filter((group) => group.permissions.length > 0);
}

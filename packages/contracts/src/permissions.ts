/**
 * The permission catalogue (spec §6). Permissions are strings attached to roles; a user's
 * effective permissions are the union over their roles. Every route in this package names the
 * permissions it needs from this list, and the server refuses any other string.
 */
export const PERMISSIONS = [
  'manage-kubernetes',
  'list-recording',
  'list-host',
  'list-group',
  'list-user-role',
  'list-all-tunnel-definitions',
  'list-api-key',
  'manage-sso-config',
  'manage-license',
  'modify-agent-config',
  // Hinted in the spec's comments; used by the identity and tunnel issues.
  'create-role',
  'modify-role',
  'modify-user-role',
  'modify-tunnel-definition',
  'create-tunnel-definition',
  'create-tunnel',
  'list-user',
  // Designed here.
  'list-audit-log',
  'modify-user',
  'modify-group',
  'manage-settings',
  'terminate-session',
  // Issue 16: legal hold (recordings on hold are never removed by retention).
  'manage-legal-hold',
] as const;

/** One permission string of the catalogue. */
export type Permission = (typeof PERMISSIONS)[number];

/** What each permission allows, for the roles screen and the OpenAPI document. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  'manage-kubernetes': 'See system status and component logs; change cluster version tags',
  'list-recording': 'List sessions and recordings',
  'list-host': 'List agents (hosts) and see the dashboard',
  'list-group': 'List groups',
  'list-user-role': 'List roles',
  'list-all-tunnel-definitions': 'List every tunnel definition',
  'list-api-key': 'List registration keys',
  'manage-sso-config': 'Change single sign-on configuration',
  'manage-license': 'Change the licence and the ingress certificate',
  'modify-agent-config': 'Change an agent’s host configuration',
  'create-role': 'Create roles',
  'modify-role': 'Change or delete roles and their permissions',
  'modify-user-role': 'Assign roles to users and remove them',
  'modify-tunnel-definition': 'Change or delete tunnel definitions',
  'create-tunnel-definition': 'Create tunnel definitions',
  'create-tunnel': 'Open sessions and tunnels through the gateway (to hosts a definition admits them to)',
  'list-user': 'List users',
  'list-audit-log': 'Read the audit trail',
  'modify-user': 'Create and delete users; send password resets to others',
  'modify-group': 'Create and delete groups; change their members, agents and child groups',
  'manage-settings': 'Change general settings (sign-up, mail, recording, banner)',
  'terminate-session': 'Terminate live sessions of hosts one may watch',
  'manage-legal-hold': 'Place and lift legal holds on recordings one may watch (held recordings outlive retention)',
};

/** True when the string names a permission of the catalogue. */
export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** The built-in role every administrator holds; it holds every permission. */
export const ADMIN_ROLE = 'admin';
/** The built-in role every user holds; sign-ups get it. */
export const USER_ROLE = 'user';
/** The role given to new sign-ups (the spec leaves the constant open). */
export const DEFAULT_SIGNUP_ROLE = USER_ROLE;

/** Permissions each built-in role starts with. */
export const BUILTIN_ROLE_PERMISSIONS: Record<string, readonly Permission[]> = {
  [ADMIN_ROLE]: PERMISSIONS,
  // Opening sessions and tunnels at all (issue 14: enforced by the policy); an administrator can take
  // it from the user role to stop every non-administrator at once. Given when the role is created.
  [USER_ROLE]: ['create-tunnel'],
};

/** The union of the roles' permissions, without duplicates, in catalogue order. */
export function effectivePermissions(roles: readonly { permissions: readonly string[] }[]): Permission[] {
  const held = new Set(roles.flatMap((r) => r.permissions));
  return PERMISSIONS.filter((p) => held.has(p));
}

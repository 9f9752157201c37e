import { z } from 'zod';
import { PERMISSIONS } from '../permissions.js';
import { MessageBody, defineRoute } from '../route.js';
import { Email, PathName, PermissionList } from './common.js';

/** A role as lists show it. */
export const RoleListItem = z
  .object({
    name: z.string(),
    permissions: z.array(z.enum(PERMISSIONS)),
    builtin: z.boolean().describe('admin and user: cannot be deleted'),
    user_count: z.number().int(),
    require_two_factor: z.boolean().describe('Holders must enrol a second factor before anything else'),
  })
  .meta({ id: 'RoleListItem' });

const nameParam = z.object({ name: PathName('Role') });
const escalation = 'Granting needs the caller to hold each permission granted (admins hold all).';

export const listRoles = defineRoute({
  id: 'role.list',
  method: 'GET',
  path: '/api/role',
  tag: 'roles',
  summary: 'Every role with its permissions and how many users hold it, by name.',
  access: { kind: 'permissions', anyOf: ['list-user-role'] },
  response: z.object({ roles: z.array(RoleListItem) }),
});

export const createRole = defineRoute({
  id: 'role.create',
  method: 'POST',
  path: '/api/role',
  tag: 'roles',
  summary: `Create a role, optionally with permissions (a list or comma-joined). ${escalation}`,
  access: { kind: 'permissions', anyOf: ['create-role'] },
  body: z.strictObject({ name: PathName('Role'), permissions: PermissionList.optional() }),
  status: 201,
  response: z.object({ role: RoleListItem, message: z.string() }),
  errors: { 409: 'That role name is already in use.  Please use a different name.' },
});

export const getRole = defineRoute({
  id: 'role.get',
  method: 'GET',
  path: '/api/role/{name}',
  tag: 'roles',
  summary: 'One role with the emails of its holders.',
  access: { kind: 'permissions', anyOf: ['list-user-role'] },
  params: nameParam,
  response: z.object({ role: RoleListItem.extend({ users: z.array(z.string()) }) }),
});

export const addRolePermissions = defineRoute({
  id: 'role.permissions.add',
  method: 'PUT',
  path: '/api/role/{name}/permissions',
  tag: 'roles',
  summary: `Add permissions (comma-joined) to a role. ${escalation} The admin role always holds every permission.`,
  access: { kind: 'permissions', anyOf: ['modify-role'] },
  params: nameParam,
  body: z.object({ permissions: PermissionList }),
  response: MessageBody,
});

export const removeRolePermissions = defineRoute({
  id: 'role.permissions.remove',
  method: 'DELETE',
  path: '/api/role/{name}/permissions',
  tag: 'roles',
  summary: 'Remove permissions (comma-joined) from a role. The admin role keeps every permission.',
  access: { kind: 'permissions', anyOf: ['modify-role'] },
  params: nameParam,
  body: z.object({ permissions: PermissionList }),
  response: MessageBody,
});

export const deleteRole = defineRoute({
  id: 'role.delete',
  method: 'DELETE',
  path: '/api/role/{name}',
  tag: 'roles',
  summary: 'Delete a role; its holders lose it. The built-in roles cannot be deleted.',
  access: { kind: 'permissions', anyOf: ['modify-role'] },
  params: nameParam,
  response: MessageBody,
});

export const setRoleUsers = defineRoute({
  id: 'role.users.add',
  method: 'PUT',
  path: '/api/role/{name}/users',
  tag: 'roles',
  summary: `Give the role to these users (emails). ${escalation.replace('Granting', 'Giving a role')}`,
  access: { kind: 'permissions', anyOf: ['modify-user-role'] },
  params: nameParam,
  body: z.object({ users: z.array(Email).min(1, 'Name at least one user').max(1000) }),
  response: MessageBody,
  errors: { 409: 'The user you are trying to add has already been added.' },
});

export const setRoleTwoFactor = defineRoute({
  id: 'role.two-factor.set',
  method: 'PUT',
  path: '/api/role/{name}/two-factor',
  tag: 'roles',
  summary:
    'Require (or stop requiring) a second factor of the role’s holders: one who has none must enrol before any other call. ' +
    `Lifting it needs the caller to hold each of the role's permissions, like granting them.`,
  access: { kind: 'permissions', anyOf: ['modify-role'] },
  params: nameParam,
  body: z.strictObject({ required: z.boolean({ error: 'required must be true or false' }) }),
  response: MessageBody,
});

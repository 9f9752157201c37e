import { ADMIN_ROLE, PERMISSIONS, type Permission, isPermission } from '@gatehouse/contracts';
import { found, list, required } from '../body';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import type { Answer, MockRole, MockState } from '../types';
import { findUser } from './people';

/** The permissions named, or a 400 naming those the catalogue lacks. */
export function permissionsIn(body: unknown): Permission[] {
  const names = list(body, 'permissions');
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0) throw new MockError(400, `Unknown permission: ${unknown.join(', ')}`);
  return [...new Set(names.filter(isPermission))];
}

function roleItem(state: MockState, role: MockRole): Answer<'listRoles'>['roles'][number] {
  return {
    name: role.name,
    permissions: PERMISSIONS.filter((p) => role.permissions.includes(p)),
    builtin: role.builtin,
    user_count: state.users.filter((user) => user.roles.includes(role.name)).length,
    require_two_factor: role.requireTwoFactor === true,
  };
}

function roleAt(state: MockState, name: string | undefined): MockRole {
  return found(
    state.roles.find((role) => role.name === name),
    `The role ${name ?? ''}`,
  );
}

/** Roles, their permissions and holders, and the permission catalogue. */
export function roleHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'permissionCatalogue', () => ({ permissions: [...PERMISSIONS] })),
    route(context, 'listRoles', () => ({
      roles: state.roles.map((role) => roleItem(state, role)).sort((a, b) => a.name.localeCompare(b.name)),
    })),
    route(
      context,
      'createRole',
      ({ body }) => {
        const name = required(body, 'name', 'Role name is required');
        if (name.includes('/')) throw new MockError(400, 'Role name must not contain slashes or control characters');
        if (state.roles.some((role) => role.name === name))
          throw new MockError(409, 'That role name is already in use.  Please use a different name.');
        const role: MockRole = { name, permissions: permissionsIn(body), builtin: false };
        state.roles.push(role);
        return { role: roleItem(state, role), message: 'Role created' };
      },
      201,
    ),
    route(context, 'getRole', ({ params }) => {
      const role = roleAt(state, params.name);
      const users = state.users.filter((user) => user.roles.includes(role.name)).map((user) => user.email);
      return { role: { ...roleItem(state, role), users } };
    }),
    route(context, 'addRolePermissions', ({ params, body }) => {
      const role = roleAt(state, params.name);
      role.permissions = [...new Set([...role.permissions, ...permissionsIn(body)])];
      return { message: 'Role updated' };
    }),
    route(context, 'removeRolePermissions', ({ params, body }) => {
      const role = roleAt(state, params.name);
      if (role.name === ADMIN_ROLE) throw new MockError(400, 'The admin role always holds every permission.');
      const removed = permissionsIn(body);
      role.permissions = role.permissions.filter((p) => !removed.includes(p));
      return { message: 'Role updated' };
    }),
    route(context, 'deleteRole', ({ params }) => {
      const role = roleAt(state, params.name);
      if (role.builtin) throw new MockError(400, 'The built-in roles cannot be deleted.');
      state.roles = state.roles.filter((r) => r !== role);
      for (const user of state.users) user.roles = user.roles.filter((name) => name !== role.name);
      return { message: 'Role deleted' };
    }),
    route(context, 'setRoleTwoFactor', ({ params, body }) => {
      const role = roleAt(state, params.name);
      role.requireTwoFactor = (body as { required?: unknown } | undefined)?.required === true;
      return { message: 'Role updated' };
    }),
    route(context, 'setRoleUsers', ({ params, body }) => {
      const role = roleAt(state, params.name);
      const users = list(body, 'users').map((email) => found(findUser(state, email), `The user ${email}`));
      if (users.length === 0) throw new MockError(400, 'Name at least one user');
      if (users.every((user) => user.roles.includes(role.name)))
        throw new MockError(409, 'The user you are trying to add has already been added.');
      for (const user of users) if (!user.roles.includes(role.name)) user.roles.push(role.name);
      return { message: 'Role updated' };
    }),
  ];
}

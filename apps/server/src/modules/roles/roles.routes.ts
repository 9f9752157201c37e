import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

type RoleHandlers = Pick<
  Handlers,
  | 'listRoles'
  | 'createRole'
  | 'getRole'
  | 'addRolePermissions'
  | 'removeRolePermissions'
  | 'deleteRole'
  | 'setRoleUsers'
  | 'permissionCatalogue'
  | 'setRoleTwoFactor'
>;

/** Handlers of the role calls. */
export function roleHandlers(s: Services): RoleHandlers {
  return {
    listRoles: () => s.roles.list(),
    createRole: ({ principal, body, request }) => {
      request.auditNote.target = body.name;
      request.auditNote.detail = { permissions: body.permissions ?? [] };
      return s.roles.create(principal, body.name, body.permissions ?? []);
    },
    getRole: ({ params }) => s.roles.get(params.name),
    addRolePermissions: ({ principal, params, body, request }) => {
      request.auditNote.detail = { permissions: body.permissions };
      return s.roles.addPermissions(principal, params.name, body.permissions);
    },
    removeRolePermissions: ({ principal, params, body, request }) => {
      request.auditNote.detail = { permissions: body.permissions };
      return s.roles.removePermissions(principal, params.name, body.permissions);
    },
    deleteRole: ({ principal, params }) => s.roles.delete(principal, params.name),
    setRoleUsers: ({ principal, params, body, request }) => {
      request.auditNote.detail = { users: body.users };
      return s.roles.addUsers(principal, params.name, body.users);
    },
    permissionCatalogue: async () => s.roles.catalogue(),
    setRoleTwoFactor: ({ principal, params, body, request }) => {
      request.auditNote.detail = { required: body.required };
      return s.roles.setTwoFactor(principal, params.name, body.required);
    },
  };
}

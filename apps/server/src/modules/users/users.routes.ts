import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

type UserHandlers = Pick<
  Handlers,
  | 'listUsers'
  | 'createUser'
  | 'deleteUser'
  | 'userRoles'
  | 'removeUserRole'
  | 'userReach'
  | 'resetUserPassword'
  | 'resetUserTwoFactor'
  | 'forgotPassword'
  | 'resetPassword'
  | 'signUp'
  | 'verifyEmail'
  | 'listSshKeys'
  | 'addSshKey'
  | 'deleteSshKey'
>;

/** Handlers of the user calls. */
export function userHandlers(s: Services): UserHandlers {
  return {
    listUsers: ({ principal, query }) => s.usersAdmin.list(principal, query),
    createUser: ({ principal, body, request }) => {
      request.auditNote.target = body.email;
      return s.usersAdmin.create(principal, body);
    },
    deleteUser: ({ principal, params }) => s.usersAdmin.delete(principal, params.email),
    userRoles: ({ principal, params }) => s.usersAdmin.rolesOf(principal, params.email),
    removeUserRole: ({ principal, params, request }) => {
      request.auditNote.detail = { role: params.role };
      return s.usersAdmin.removeRole(principal, params.email, params.role);
    },
    userReach: ({ principal, params }) => s.usersAdmin.reach(principal, params.email),
    resetUserPassword: ({ principal, params }) => s.passwords.resetOther(principal, params.email),
    resetUserTwoFactor: async ({ principal, params, request }) => {
      const { message, detail } = await s.usersAdmin.resetTwoFactor(principal, params.email);
      request.auditNote.target = params.email;
      request.auditNote.detail = detail;
      return { message };
    },
    forgotPassword: ({ body, request }) => {
      request.auditNote.actor = body.email;
      return s.passwords.forgot(body.email, request.ip);
    },
    resetPassword: ({ body }) => s.passwords.reset(body.token, body.new_password, body.new_password_confirm),
    signUp: ({ body, request }) => {
      request.auditNote.actor = body.email;
      return s.passwords.signUp(body);
    },
    verifyEmail: ({ body }) => s.passwords.verifyEmail(body.token),
    listSshKeys: ({ principal }) => s.sshKeys.list(principal),
    addSshKey: ({ principal, body }) => s.sshKeys.add(principal, body.name, body.public_key),
    deleteSshKey: ({ principal, params }) => s.sshKeys.delete(principal, params.id),
  };
}

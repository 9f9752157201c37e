import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

type GroupHandlers = Pick<
  Handlers,
  | 'listGroups'
  | 'createGroup'
  | 'deleteGroup'
  | 'addGroupUsers'
  | 'removeGroupUser'
  | 'addGroupAgents'
  | 'removeGroupAgent'
  | 'addChildGroups'
  | 'removeChildGroup'
>;

/** Handlers of the group calls. */
export function groupHandlers(s: Services): GroupHandlers {
  return {
    listGroups: () => s.groups.list(),
    createGroup: ({ body, request }) => {
      request.auditNote.target = body.name;
      return s.groups.create(body.name);
    },
    deleteGroup: ({ principal, params }) => s.groups.delete(principal, params.name),
    addGroupUsers: ({ principal, params, body, request }) => {
      request.auditNote.detail = { users: body.users };
      return s.groups.addUsers(principal, params.name, body.users);
    },
    removeGroupUser: ({ principal, params, request }) => {
      request.auditNote.detail = { user: params.email };
      return s.groups.removeUser(principal, params.name, params.email);
    },
    addGroupAgents: ({ principal, params, body, request }) => {
      request.auditNote.detail = { agents: body.agents };
      return s.groups.addAgents(principal, params.name, body.agents);
    },
    removeGroupAgent: ({ principal, params, request }) => {
      request.auditNote.detail = { agent: params.id };
      return s.groups.removeAgent(principal, params.name, params.id);
    },
    addChildGroups: ({ principal, params, body, request }) => {
      request.auditNote.detail = { groups: body.groups };
      return s.groups.addChildren(principal, params.name, body.groups);
    },
    removeChildGroup: ({ principal, params, request }) => {
      request.auditNote.detail = { group: params.child };
      return s.groups.removeChild(principal, params.name, params.child);
    },
  };
}

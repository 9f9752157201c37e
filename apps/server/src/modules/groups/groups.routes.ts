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
    deleteGroup: ({ params }) => s.groups.delete(params.name),
    addGroupUsers: ({ params, body, request }) => {
      request.auditNote.detail = { users: body.users };
      return s.groups.addUsers(params.name, body.users);
    },
    removeGroupUser: ({ params, request }) => {
      request.auditNote.detail = { user: params.email };
      return s.groups.removeUser(params.name, params.email);
    },
    addGroupAgents: ({ params, body, request }) => {
      request.auditNote.detail = { agents: body.agents };
      return s.groups.addAgents(params.name, body.agents);
    },
    removeGroupAgent: ({ params, request }) => {
      request.auditNote.detail = { agent: params.id };
      return s.groups.removeAgent(params.name, params.id);
    },
    addChildGroups: ({ params, body, request }) => {
      request.auditNote.detail = { groups: body.groups };
      return s.groups.addChildren(params.name, body.groups);
    },
    removeChildGroup: ({ params, request }) => {
      request.auditNote.detail = { group: params.child };
      return s.groups.removeChild(params.name, params.child);
    },
  };
}

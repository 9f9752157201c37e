import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

type TunnelHandlers = Pick<
  Handlers,
  | 'listTunnels'
  | 'listAllTunnels'
  | 'createTunnel'
  | 'updateTunnel'
  | 'deleteTunnel'
  | 'setTunnelUsers'
  | 'setTunnelAgents'
>;

/** Handlers of the tunnel definition calls. */
export function tunnelHandlers(s: Services): TunnelHandlers {
  return {
    listTunnels: ({ principal }) => s.tunnels.listFor(principal),
    listAllTunnels: () => s.tunnels.listAll(),
    createTunnel: async ({ principal, params, body, request }) => {
      const created = await s.tunnels.create(principal, params.type, body);
      request.auditNote.target = created.definition.id;
      request.auditNote.detail = {
        type: params.type,
        name: body.name,
        host: body.host_id,
        port: created.definition.port,
      };
      return created;
    },
    updateTunnel: ({ principal, params, body, request }) => {
      request.auditNote.detail = { fields: Object.keys(body).filter((k) => k !== 'password') };
      return s.tunnels.update(principal, params.id, body);
    },
    deleteTunnel: ({ params }) => s.tunnels.delete(params.id),
    setTunnelUsers: ({ principal, params, body, request }) => {
      request.auditNote.detail = { users: body.users };
      return s.tunnels.setUsers(principal, params.id, body.users);
    },
    setTunnelAgents: ({ principal, params, body, request }) => {
      const agents = Array.isArray(body) ? body : body.agents;
      request.auditNote.detail = { agents };
      return s.tunnels.setAgents(principal, params.id, agents);
    },
  };
}

import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handlers of the agent calls. */
export function agentHandlers(
  s: Services,
): Pick<Handlers, 'listAgents' | 'getAgentConfig' | 'saveAgentConfig' | 'deleteAgent' | 'registerAgent'> {
  return {
    listAgents: () => s.agents.list(),
    getAgentConfig: ({ params }) => s.agents.config(params.id),
    saveAgentConfig: ({ params, body, request }) => {
      request.auditNote.detail = { fields: Object.keys(body) };
      return s.agents.saveConfig(params.id, body);
    },
    deleteAgent: async ({ params, request }) => {
      const { message, hostname } = await s.agents.delete(params.id);
      request.auditNote.detail = { hostname };
      return { message };
    },
    registerAgent: async ({ body, request }) => {
      request.auditNote.actor = `agent:${body.hostname}`;
      const enrolled = await s.agents.register(body, request.ip);
      request.auditNote.target = enrolled.id;
      return enrolled;
    },
  };
}

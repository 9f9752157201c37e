import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handlers of the registration key calls. */
export function apiKeyHandlers(s: Services): Pick<Handlers, 'listApiKeys' | 'createApiKey' | 'deleteApiKey'> {
  return {
    listApiKeys: () => s.apiKeys.list(),
    createApiKey: async ({ principal, body, request }) => {
      const created = await s.apiKeys.create(principal.email, body.description, {
        hours: body.expires_in_hours,
        uses: body.uses,
      });
      request.auditNote.target = created.uuid;
      return created;
    },
    deleteApiKey: ({ params }) => s.apiKeys.delete(params.uuid),
  };
}

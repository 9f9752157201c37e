import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handlers of the mail outbox (admin role only, declared in the contract). */
export function mailHandlers(s: Services): Pick<Handlers, 'listOutbox' | 'getOutboxMessage' | 'deleteOutboxMessage'> {
  return {
    listOutbox: ({ query }) => s.mail.listOutbox(query.offset, query.limit),
    getOutboxMessage: ({ params }) => s.mail.readOutbox(params.id),
    deleteOutboxMessage: async ({ params, request }) => {
      request.auditNote.target = params.id;
      return s.mail.deleteOutbox(params.id);
    },
  };
}

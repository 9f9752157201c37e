import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handlers of the session calls. */
export function recordingHandlers(s: Services): Pick<Handlers, 'listRecordings' | 'terminateTunnel'> {
  return {
    listRecordings: ({ query }) => s.sessions.list(query.start, query.end, query.limit),
    terminateTunnel: ({ principal, params, request }) => {
      const header = request.headers['host-id'] ?? request.headers['x-host-id'];
      return s.sessions.terminate(principal, params.id, Array.isArray(header) ? header[0] : header);
    },
  };
}

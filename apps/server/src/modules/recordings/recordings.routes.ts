import type { Handlers } from '../../http/bind-routes.js';
import { HttpError } from '../../http/errors.js';
import type { Services } from '../../services.js';

type RecordingRoutes =
  | 'listRecordings'
  | 'terminateTunnel'
  | 'getRecordingDetail'
  | 'openRecording'
  | 'getRecordingCast'
  | 'seekRecording'
  | 'searchRecording'
  | 'verifyRecording'
  | 'getDashboard';

/** Handlers of the session calls. */
export function recordingHandlers(s: Services): Pick<Handlers, RecordingRoutes> {
  const soon = (): never => {
    throw new HttpError(404, 'Not yet.');
  };
  return {
    listRecordings: async ({ query }) => ({
      ...(await s.sessions.list(query.start, query.end, query.limit)),
      next_cursor: null,
    }),
    terminateTunnel: ({ principal, params, request }) => {
      const header = request.headers['host-id'] ?? request.headers['x-host-id'];
      return s.sessions.terminate(principal, params.id, Array.isArray(header) ? header[0] : header);
    },
    getRecordingDetail: async () => soon(),
    openRecording: async () => soon(),
    getRecordingCast: async () => soon(),
    seekRecording: async () => soon(),
    searchRecording: async () => soon(),
    verifyRecording: async () => soon(),
    getDashboard: async () => soon(),
  };
}

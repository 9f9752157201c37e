import type { Handlers } from '../../http/bind-routes.js';
import { sendFile } from '../../http/send-file.js';
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
  | 'listRecordingTransfers'
  | 'getDashboard';

/** Handlers of the session calls. */
export function recordingHandlers(s: Services): Pick<Handlers, RecordingRoutes> {
  return {
    listRecordings: ({ principal, query }) => s.sessions.list(principal, query),
    getRecordingDetail: ({ principal, params }) => s.sessions.detail(principal, params.id),
    openRecording: async ({ principal, params, request }) => {
      await s.sessions.forWatcher(principal, params.id);
      const { ticket, expiresAt } = s.mediaTickets.issue(principal.tokenHash, params.id);
      request.auditNote.target = params.id;
      return { ticket, expires_at: expiresAt.toISOString() };
    },
    getRecordingCast: async ({ principal, params, query, request, reply }) => {
      const { row, cast } = await s.sessions.openCast(principal, params.id);
      await cast.close();
      return sendFile(request, reply, {
        path: row.storagePath,
        size: cast.size,
        type: 'application/x-asciicast',
        downloadName: query.download
          ? `${row.hostname}-${row.startedOn.toISOString().replace(/[:.]/g, '-')}.cast`
          : undefined,
      });
    },
    seekRecording: ({ principal, params, query }) => s.sessions.seek(principal, params.id, query.t),
    searchRecording: ({ principal, params, query }) => s.sessions.search(principal, params.id, query.q),
    verifyRecording: async ({ principal, params }) =>
      s.sessions.verify(principal, params.id, {
        active: (await s.gatewayKeys.keys()).signingPublicKey,
        known: await s.gatewayKeys.knownSigningKeys(),
      }),
    getDashboard: ({ principal, query }) => s.dashboard.dashboard(principal, query),
    listRecordingTransfers: ({ principal, params }) => s.transfers.list(principal, params.id),
    terminateTunnel: ({ principal, params, request }) => {
      const header = request.headers['host-id'] ?? request.headers['x-host-id'];
      return s.sessions.terminate(principal, params.id, Array.isArray(header) ? header[0] : header);
    },
  };
}

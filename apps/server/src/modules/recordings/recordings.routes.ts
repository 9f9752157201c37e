import type { Handlers } from '../../http/bind-routes.js';
import { sendFile } from '../../http/send-file.js';
import type { Services } from '../../services.js';
import type { RecordingRow } from '../../recordings/recordings.repository.js';
import type { Principal } from '../auth/principal.js';
import { HttpError } from '../../http/errors.js';
import { storageError } from '../../recordings/object-store.js';

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
      const stored = await storedRow(s, principal, params.id);
      let size: number;
      let row: RecordingRow;
      if (stored) {
        // In object storage: each range read straight from the object (ADR 0008).
        row = stored;
        size = await s.sessions.castSize(row);
      } else {
        const opened = await s.sessions.openCast(principal, params.id);
        await opened.cast.close();
        row = opened.row;
        size = opened.cast.size;
      }
      const objects = s.recordingObjects;
      return sendFile(request, reply, {
        path: row.storagePath,
        open:
          stored && objects ? (start, end) => objectStream(() => objects.read(stored, 'cast', start, end)) : undefined,
        size,
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

/** The session after the watcher checks when its files are in object storage; undefined when local. */
export async function storedRow(
  s: Services,
  principal: Principal,
  id: string,
): Promise<(RecordingRow & { objectKey: string }) | undefined> {
  const row = await s.sessions.forWatcher(principal, id);
  return s.recordingObjects?.stored(row) ? row : undefined;
}

/** A ranged object read; object storage out of reach answers 503, a missing object 404. */
export async function objectStream<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey')
      throw new HttpError(404, 'The recording’s object is missing from the object storage.');
    throw new HttpError(503, `The object storage could not be read (${storageError(error)}); try again in a moment.`);
  }
}

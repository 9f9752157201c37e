import { HttpResponse } from 'msw';
import { type MockCast, buildCast, searchCast, seekCast } from '../cast';
import { transfersOf } from '../data/transfers';
import { MockError, type MockContext, type NamedHandler, errorResponse, mockToken, route } from '../http';
import type { Answer, MockRecording, MockState } from '../types';
import { dashboardOf } from './dashboard';
import { holdHandlers } from './legal-hold';
import { searchHandlers } from './recording-search';
import { listSessions } from './sessions-list';

/** The cast file answered whole or as the range asked for (206), like the server's send-file. */
function castResponse(cast: MockCast, request: Request, id: string, download: boolean): Response {
  const size = cast.bytes.length;
  const headers: Record<string, string> = { 'Content-Type': 'application/x-asciicast', 'Accept-Ranges': 'bytes' };
  if (download) headers['Content-Disposition'] = `attachment; filename="${id}.cast"`;
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('Range') ?? '');
  if (!range) return new HttpResponse(cast.bytes.slice(), { status: 200, headers });
  const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
  const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size || start > end)
    return new HttpResponse(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  return new HttpResponse(cast.bytes.slice(start, end + 1), {
    status: 206,
    headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}` },
  });
}

/** Sessions: the list, one session's detail and files, integrity, termination and the dashboard. */
export function recordingHandlers(state: MockState, context: MockContext): NamedHandler[] {
  const casts = new Map<string, MockCast>();
  const recordingAt = (id: string | undefined): MockRecording => {
    const row = state.recordings.find((r) => r.id === id);
    if (!row) throw new MockError(404, 'There is no session with that id that you may see.');
    return row;
  };
  const castOf = (recording: MockRecording): MockCast => {
    if (recording.type !== 'ssh') throw new MockError(404, 'This session has no terminal recording.');
    const cast = casts.get(recording.id) ?? buildCast(recording);
    casts.set(recording.id, cast);
    return cast;
  };

  const detail = (row: MockRecording): Answer<'getRecordingDetail'> => {
    const { login: _login, ...fields } = row;
    const ssh = row.type === 'ssh';
    const size = ssh ? castOf(row).bytes.length : 0;
    const ended = row.ended_on === null ? Date.now() : Date.parse(row.ended_on);
    return {
      ...fields,
      width: ssh ? row.width : null,
      height: ssh ? row.height : null,
      bytes: size,
      chunks: Math.ceil(size / 4096),
      duration_ms: Math.max(0, ended - Date.parse(row.started_on)),
      video_bytes: 0,
      manifest_signed: ssh && row.ended_on !== null && row.end_reason !== 'recovered',
    };
  };

  return [
    route(context, 'listRecordings', ({ query }) => listSessions(state, query)),
    route(context, 'getDashboard', ({ query }) => dashboardOf(state, query)),
    route(context, 'listRecordingTransfers', ({ params }) => ({
      transfers: transfersOf(recordingAt(params.id)),
      truncated: false,
    })),
    route(context, 'getRecordingDetail', ({ params }) => detail(recordingAt(params.id))),
    route(context, 'playbackAvailable', ({ params }) => {
      const row = recordingAt(params.id);
      return { available: false, video_bytes: 0, content_type: null, live: row.ended_on === null };
    }),
    route(context, 'openRecording', ({ params, caller }) => {
      recordingAt(params.id);
      return { ticket: mockToken(caller ?? '', 'ticket'), expires_at: new Date(Date.now() + 60_000).toISOString() };
    }),
    route(context, 'getRecordingCast', ({ params, query, request }) => {
      const row = recordingAt(params.id);
      return castResponse(castOf(row), request, row.id, query.get('download') === 'true');
    }),
    route(context, 'getRecordingVideo', () =>
      errorResponse(404, 'No video for that session: mock data has no videos.'),
    ),
    route(context, 'getRecordingBundle', ({ params }) => {
      recordingAt(params.id);
      return errorResponse(409, 'Mock data has no signed recordings: evidence bundles come from a real server.');
    }),
    route(context, 'seekRecording', ({ params, query }) =>
      seekCast(castOf(recordingAt(params.id)), Number(query.get('t') ?? 0) || 0),
    ),
    route(context, 'searchRecording', ({ params, query }) => {
      const q = query.get('q') ?? '';
      if (q === '') throw new MockError(400, 'q is the text to find');
      return searchCast(castOf(recordingAt(params.id)), q);
    }),
    route(context, 'verifyRecording', ({ params }): Answer<'verifyRecording'> => {
      const row = recordingAt(params.id);
      if (row.type !== 'ssh')
        return {
          status: 'missing',
          message: 'Mock data has no recording files for this session type.',
          checked_bytes: 0,
          chunks: 0,
        };
      const { bytes, chunks } = detail(row);
      if (row.ended_on === null)
        return {
          status: 'live',
          message: 'Still recording: the manifest is signed when the session ends.',
          checked_bytes: bytes,
          chunks,
        };
      if (row.end_reason === 'recovered')
        return {
          status: 'unsigned',
          message: 'Recovered after the recorder stopped: the hash chain holds, but no manifest was signed.',
          checked_bytes: bytes,
          chunks,
        };
      return {
        status: 'intact',
        message: 'The recording matches its hash chain and its signed manifest.',
        checked_bytes: bytes,
        chunks,
      };
    }),
    route(context, 'terminateTunnel', ({ params, caller }) => {
      const row = recordingAt(params.id);
      if (row.ended_on !== null) throw new MockError(409, 'The session already ended.');
      Object.assign(row, { ended_on: new Date().toISOString(), end_reason: 'terminated', terminated_by: caller });
      casts.delete(row.id);
      return { message: `Session on ${row.host.hostname} terminated.` };
    }),
    ...holdHandlers(context, recordingAt),
    ...searchHandlers(state, context, castOf),
  ];
}

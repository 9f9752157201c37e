import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { Timestamp } from './common.js';
import { LegalHold } from './recording-hold.js';
import { SESSION_KINDS } from './file-transfers.js';

export const RECORDING_TYPES = ['ssh', 'rdp', 'generic', 'agent'] as const;

/**
 * What a session was, as the list shows and filters it: an SSH session's first channel
 * (SESSION_KINDS), or 'desktop' for an rdp session run by the gateway as a browser desktop and
 * filmed there (issue 18). An rdp session of a native client through a tunnel has none (null).
 */
export const RECORDING_KINDS = [...SESSION_KINDS, 'desktop'] as const;
export type RecordingKind = (typeof RECORDING_KINDS)[number];

/** How an rdp session's video stands (issue 18): the agent's capture states, or not-filmed. */
export const VIDEO_STATES = ['waiting', 'filming', 'stopped', 'failed', 'unsupported', 'not-filmed'] as const;
export const VideoState = z.enum(VIDEO_STATES);
export type VideoState = z.infer<typeof VideoState>;

/** A session recording as the spec's list has it (§3), plus what the gateway knows. */
export const Recording = z
  .object({
    id: z.string(),
    host: z.object({ id: z.string().nullable(), hostname: z.string() }),
    user: z.object({ email: z.string() }),
    started_on: Timestamp,
    ended_on: Timestamp.nullable().describe('Absent while the session is live'),
    has_video: z.boolean(),
    type: z.enum(RECORDING_TYPES),
    tunnel: z.string().nullable().describe('Name of the tunnel definition used'),
    end_reason: z.string().nullable(),
    terminated_by: z.string().nullable(),
    forwards: z
      .array(z.string())
      .describe(
        'Targets (host:port) the session forwarded to with ssh -L; each forward’s times and byte counts are in the recording',
      ),
    legal_hold: LegalHold.describe('While held, retention never removes the recording'),
    kind: z
      .enum(RECORDING_KINDS)
      .nullable()
      .describe(
        'What the SSH session’s first channel was (shell, exec, sftp, scp, forward); desktop for an rdp session the gateway ran as a browser desktop and filmed; null for a native RDP client through a tunnel and for other tunnels',
      ),
    command: z.string().nullable().describe('The command of an exec or scp session'),
    video_state: VideoState.nullable()
      .optional()
      .describe(
        'rdp through a tunnel: how the agent’s capture stands (waiting, filming, stopped, failed, unsupported) or not-filmed (the session ran, or was refused, unfilmed); null when never asked',
      ),
    video_note: z
      .string()
      .nullable()
      .optional()
      .describe('Why the session is not filmed, or why the capture failed (at most 500 characters)'),
  })
  .meta({ id: 'Recording' });

/** Columns the session list sorts by on the server. */
export const RECORDING_SORTS = ['started_on', 'ended_on', 'hostname', 'user', 'type', 'kind'] as const;

const Bool = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
const DateText = z.string().max(40, 'dates are at most 40 characters');

export const listRecordings = defineRoute({
  id: 'recording.list',
  method: 'GET',
  path: '/api/recording',
  tag: 'sessions',
  summary:
    'Recordings started between start (default 2020-01-01) and end (default now), newest first, that the caller may see. ' +
    'Filters, sorting and keyset paging: pass next_cursor back as cursor for the next page.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  query: z.object({
    start: DateText.optional(),
    end: DateText.optional(),
    limit: z.coerce.number().int().min(1).max(10_000).default(1000),
    cursor: z.string().max(400, 'cursor is at most 400 characters').optional(),
    sort: z.enum(RECORDING_SORTS, { error: `sort must be one of ${RECORDING_SORTS.join(', ')}` }).default('started_on'),
    order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
    type: z.enum(RECORDING_TYPES, { error: 'type must be ssh, rdp, generic or agent' }).optional(),
    live: Bool.optional(),
    host: z.uuid({ error: 'host must be an agent id' }).optional(),
    user: z.string().max(320).optional().describe('Email of the user, exact'),
    tunnel: z.string().max(200).optional().describe("Tunnel definition name; 'all' means any"),
    q: z.string().max(200).optional().describe('Text in the hostname, user email or tunnel name'),
    min_duration: z.coerce
      .number()
      .int()
      .min(0)
      .max(10 * 365 * 86400)
      .optional()
      .describe('Seconds; live ones count up to now'),
    with_total: Bool.optional().describe('Also count every match (slower on large tables)'),
    forwarded: Bool.optional().describe(
      'true: only sessions that forwarded ports (ssh -L); false: only those that did not',
    ),
    hold: z
      .enum(['true', 'false'], { error: 'hold must be true or false' })
      .transform((v) => v === 'true')
      .optional()
      .describe('true: only recordings on legal hold; false: only those not on hold'),
    kind: z
      .enum(RECORDING_KINDS, { error: `kind must be one of ${RECORDING_KINDS.join(', ')}` })
      .optional()
      .describe('Only sessions whose first channel was of this kind, or (desktop) browser desktops run by the gateway'),
  }),
  response: z.object({
    recordings: z.array(Recording),
    next_cursor: z.string().nullable(),
    total: z.number().int().optional(),
  }),
});

/** Integrity of a recording's bytes against its hash chain and signed manifest. */
export const RecordingIntegrity = z
  .object({
    status: z.enum(['intact', 'tampered', 'live', 'unsigned', 'missing']),
    message: z.string(),
    checked_bytes: z.number().int(),
    chunks: z.number().int(),
    video: z
      .object({
        status: z.enum(['intact', 'tampered', 'uploading', 'uncovered']),
        message: z.string(),
        bytes: z.number().int(),
        pieces: z.number().int(),
        cut: z.boolean().describe('The upload never completed: the server signed what it had committed'),
      })
      .optional()
      .describe(
        'An rdp session’s video: its pieces’ digests, chain and signed video manifest. A tampered video makes the whole status tampered.',
      ),
  })
  .meta({ id: 'RecordingIntegrity' });

/** Everything known of one session. */
export const RecordingDetail = Recording.extend({
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  bytes: z.number().int().describe('Size of the asciicast file'),
  chunks: z.number().int(),
  duration_ms: z.number().int().describe('Ended minus started, or now minus started while live'),
  video_bytes: z.number().int().describe('Size of the captured video; 0 when none'),
  manifest_signed: z.boolean(),
  tunnel_id: z.string().nullable(),
  user_id: z.string().nullable(),
}).meta({ id: 'RecordingDetail' });

const idParam = z.object({ id: z.uuid({ error: 'Not a session id' }) });

export const getRecordingDetail = defineRoute({
  id: 'recording.detail',
  method: 'GET',
  path: '/api/recording/{id}/data',
  tag: 'sessions',
  summary: 'One session in detail (spec: /api/recording/{sessionId}/data).',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  params: idParam,
  response: RecordingDetail,
  errors: { 404: 'No session with that id that the caller may see' },
});

export const playbackAvailable = defineRoute({
  id: 'recording.playback-available',
  method: 'GET',
  path: '/api/recording/{id}/playback_available',
  tag: 'sessions',
  summary: 'Whether the session has a video to play (RDP with recording enabled on its host).',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  params: idParam,
  response: z.object({
    available: z.boolean(),
    video_bytes: z.number().int(),
    content_type: z.string().nullable(),
    live: z.boolean().describe('The capture is still being uploaded'),
  }),
  errors: { 404: 'No session with that id that the caller may see' },
});

export const openRecording = defineRoute({
  id: 'recording.open',
  method: 'POST',
  path: '/api/recording/{id}/ticket',
  tag: 'sessions',
  summary:
    'A short-lived ticket for this caller and recording, so a player or a download link can fetch /cast and /video ' +
    'without a header. Audited: it says who opened which recording.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  params: idParam,
  response: z.object({ ticket: z.string(), expires_at: Timestamp }),
  errors: { 404: 'No session with that id that the caller may see' },
});

const mediaQuery = z.object({
  ticket: z.string().max(600).optional().describe('From POST /api/recording/{id}/ticket, instead of the token header'),
  download: Bool.optional().describe('Answer as an attachment'),
});

export const getRecordingCast = defineRoute({
  id: 'recording.cast',
  method: 'GET',
  path: '/api/recording/{id}/cast',
  tag: 'sessions',
  summary:
    'The asciicast v2 file (application/x-asciicast), with HTTP range requests: a player fetches the header and the ' +
    'first bytes, then the rest as it plays. While live: what is on disk so far.',
  access: { kind: 'permissions', anyOf: ['list-recording'], ticket: true },
  params: idParam,
  query: mediaQuery,
  raw: 'application/x-asciicast',
  response: z.unknown(),
  errors: { 404: 'No session with that id that the caller may see', 416: 'Range outside the file' },
});

export const getRecordingBundle = defineRoute({
  id: 'recording.bundle',
  method: 'GET',
  path: '/api/recording/{id}/bundle',
  tag: 'sessions',
  summary:
    'The evidence bundle of a finished session (application/x-tar, gatehouse-session-<id>.tar): the recording, its ' +
    'chain, the signed manifest and checkpoints, the signed video statement when there is a video, the public key and a ' +
    'README. Check it offline with `npx gatehouse verify gatehouse-session-<id>.tar --key <fingerprint>`. Audited.',
  access: { kind: 'permissions', anyOf: ['list-recording'], ticket: true },
  params: idParam,
  query: z.object({
    ticket: z
      .string()
      .max(600)
      .optional()
      .describe('From POST /api/recording/{id}/ticket, instead of the token header'),
  }),
  raw: 'application/x-tar',
  response: z.unknown(),
  errors: {
    404: 'No session with that id that the caller may see, or its files are missing',
    409: 'The session is live (the bundle exists once it ends), unsigned, or its video is still being uploaded',
  },
});

export const getRecordingVideo = defineRoute({
  id: 'recording.video',
  method: 'GET',
  path: '/api/recording/{id}/video',
  tag: 'sessions',
  summary: 'The RDP video (fragmented MP4), with HTTP range requests for seeking.',
  access: { kind: 'permissions', anyOf: ['list-recording'], ticket: true },
  params: idParam,
  query: mediaQuery,
  raw: 'video/mp4',
  response: z.unknown(),
  errors: { 404: 'No video for that session', 416: 'Range outside the file' },
});

export const seekRecording = defineRoute({
  id: 'recording.seek',
  method: 'GET',
  path: '/api/recording/{id}/seek',
  tag: 'sessions',
  summary:
    'Where time t (seconds from the start) lies in the asciicast file: the byte offset of the first event at or after t ' +
    '(a binary search over the file, so it is fast at any size), the file size and where the events begin.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  params: idParam,
  query: z.object({
    t: z.coerce
      .number({ error: 't must be seconds' })
      .min(0)
      .max(10 * 365 * 86400),
  }),
  response: z.object({
    t: z.number().describe('Time of the event at offset (or of the last event when t is beyond the end)'),
    offset: z.number().int(),
    size: z.number().int().describe('Bytes in the file that are complete events'),
    events_start: z.number().int().describe('Offset of the first event (after the header line)'),
    duration: z.number().describe('Time of the last event'),
  }),
  errors: { 404: 'No session with that id that the caller may see' },
});

export const searchRecording = defineRoute({
  id: 'recording.search',
  method: 'GET',
  path: '/api/recording/{id}/search',
  tag: 'sessions',
  summary: 'Where text appears in the session’s output (escape sequences ignored, case-insensitive): up to 500 hits.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  params: idParam,
  query: z.object({
    q: z
      .string({ error: 'q is the text to find' })
      .min(1, 'q is the text to find')
      .max(200, 'q is at most 200 characters'),
  }),
  response: z.object({
    hits: z.array(
      z.object({
        t: z.number(),
        offset: z.number().int(),
        excerpt: z.string().describe('The output around the match (plain text), cut at word boundaries'),
        match_start: z.number().int().describe('Where the match begins in excerpt (UTF-16 units)'),
        match_length: z.number().int().describe('Its length in excerpt'),
        clipped_start: z.boolean().describe('The output goes on before the excerpt'),
        clipped_end: z.boolean().describe('The output goes on after the excerpt'),
      }),
    ),
    truncated: z.boolean(),
  }),
  errors: {
    404: 'No session with that id that the caller may see',
    503: 'This server is running as many searches as it takes; try again in a minute',
  },
});

export const verifyRecording = defineRoute({
  id: 'recording.verify',
  method: 'GET',
  path: '/api/recording/{id}/verify',
  tag: 'sessions',
  summary: 'Checks the recording against its hash chain and signed manifest: intact or tampered, and why.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  params: idParam,
  response: RecordingIntegrity,
  errors: {
    404: 'No session with that id that the caller may see',
    503: 'This server is running as many verifications as it takes, or cannot read the recording storage',
  },
});

export const uploadRecordingVideo = defineRoute({
  id: 'recording.video-upload',
  method: 'PUT',
  path: '/api/recording/{id}/video',
  tag: 'agents',
  summary:
    'The agent appends captured video (application/octet-stream) as it records, at most 8 MiB a call. offset must be the ' +
    'bytes already stored (a retry of a stored piece is acknowledged); final=true when the capture ended.',
  access: { kind: 'agent' },
  params: idParam,
  query: z.object({
    offset: z.coerce.number().int().min(0),
    final: Bool.optional(),
  }),
  raw: 'application/octet-stream',
  response: z.object({ bytes: z.number().int() }),
  errors: { 401: 'Not an agent', 403: 'Not this recording’s agent', 409: 'offset does not match the bytes stored' },
});

/** One bucket of a dashboard chart. */
export const ChartBucket = z.object({
  start: Timestamp,
  label: z.string().describe('Local hour (HH:00) or day (YYYY-MM-DD) in the requested time zone'),
  sessions: z.number().int(),
});

/** The dashboard's session charts (spec §3 Session charts, §9). */
export const SessionCharts = z
  .object({
    past24Hours: z.array(ChartBucket).describe('24 hourly buckets'),
    pastWeek: z.array(ChartBucket).describe('7 daily buckets'),
    pastMonth: z.array(ChartBucket).describe('30 daily buckets'),
    pastAll: z.array(ChartBucket).describe('Every day since the first session'),
    longRunning: z.array(ChartBucket).describe('Daily, by start, sessions live for at least 24 hours'),
    totalPast24Hours: z.number().int(),
    totalPastWeek: z.number().int(),
    totalPastMonth: z.number().int(),
    totalAll: z.number().int(),
    totalLongRunning: z.number().int().describe('Sessions live now for at least 24 hours'),
    live: z.number().int(),
  })
  .meta({ id: 'SessionCharts' });

export const getDashboard = defineRoute({
  id: 'agent.dashboard',
  method: 'GET',
  path: '/api/agent/dashboard',
  tag: 'agents',
  summary:
    'Sessions and agents for the dashboard: the session charts, and agents connected and enrolled per day between ' +
    'start (default 30 days ago) and end (now). tz (an IANA zone such as Europe/Paris) sets where days begin.',
  access: { kind: 'permissions', anyOf: ['list-host', 'list-recording'] },
  query: z.object({
    start: DateText.optional(),
    end: DateText.optional(),
    tz: z.string().max(64).optional(),
  }),
  response: z.object({
    recordings: SessionCharts,
    agents_dashboard: z.object({
      connected: z.number().int(),
      total: z.number().int(),
      days: z.array(
        z.object({
          start: Timestamp,
          label: z.string(),
          connected: z.number().int().describe('Agents connected at some time that day'),
          total: z.number().int().describe('Agents enrolled at the end of that day'),
        }),
      ),
    }),
  }),
});

export const terminateTunnel = defineRoute({
  id: 'tunnel.terminate',
  method: 'DELETE',
  path: '/api/tunnel/{id}',
  tag: 'sessions',
  summary:
    'Terminate a live session (its recording id). The host-id header names the session’s host. The user is told why; the recording is finalised and names who terminated it.',
  access: { kind: 'permissions', anyOf: ['terminate-session'] },
  params: z.object({ id: z.uuid({ error: 'Not a session id' }) }),
  response: MessageBody,
  errors: { 404: 'No live session with that id', 409: 'The session already ended' },
});

import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { Timestamp } from './common.js';

/** A session recording as the spec's list has it (§3), plus what the gateway knows. */
export const Recording = z
  .object({
    id: z.string(),
    host: z.object({ id: z.string().nullable(), hostname: z.string() }),
    user: z.object({ email: z.string() }),
    started_on: Timestamp,
    ended_on: Timestamp.nullable().describe('Absent while the session is live'),
    has_video: z.boolean(),
    type: z.enum(['ssh', 'rdp', 'generic', 'agent']),
    tunnel: z.string().nullable().describe('Name of the tunnel definition used'),
    end_reason: z.string().nullable(),
    terminated_by: z.string().nullable(),
  })
  .meta({ id: 'Recording' });

export const listRecordings = defineRoute({
  id: 'recording.list',
  method: 'GET',
  path: '/api/recording',
  tag: 'sessions',
  summary: 'Recordings started between start (default 2020-01-01) and end (default now), newest first.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  query: z.object({
    start: z.string().max(40).optional(),
    end: z.string().max(40).optional(),
    limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  }),
  response: z.object({ recordings: z.array(Recording) }),
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

import { z } from 'zod';
import { defineRoute } from '../route.js';
import { Recording } from './recordings.js';

/** What a line of a recording's indexed text is. */
export const RECORDING_TEXT_KINDS = ['output', 'input', 'command', 'file'] as const;
/** One kind of indexed text. */
export type RecordingTextKind = (typeof RECORDING_TEXT_KINDS)[number];

/** Shortest and longest text searched across recordings, in characters. */
export const RECORDING_SEARCH_MIN = 3;
export const RECORDING_SEARCH_MAX = 200;
/** Most hits shown per session. */
export const RECORDING_SEARCH_HITS_PER_SESSION = 5;
/** Hits per session are counted up to this many (more reads "1000+"). */
export const RECORDING_SEARCH_COUNT_CAP = 1000;

// eslint-disable-next-line no-control-regex -- a line of the index never holds a control character
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/** One place the text was found. */
export const RecordingSearchHit = z
  .object({
    t: z.number().describe('Seconds from the session’s start when the line was complete'),
    kind: z.enum(RECORDING_TEXT_KINDS),
    snippet: z.string().describe('The line around the match (plain text, at most about 200 characters)'),
    match_start: z.number().int().describe('Where the match begins in snippet (UTF-16 units)'),
    match_length: z.number().int().describe('Its length in snippet; 0 when it could not be placed'),
    clipped_start: z.boolean().describe('The line goes on before the snippet'),
    clipped_end: z.boolean().describe('The line goes on after the snippet'),
  })
  .meta({ id: 'RecordingSearchHit' });

/** A session with hits: its row as the session list has it and its first hits. */
export const RecordingSearchSession = z
  .object({
    recording: Recording,
    hits: z.array(RecordingSearchHit),
    hit_count: z.number().int().describe(`Lines that match, counted up to ${RECORDING_SEARCH_COUNT_CAP}`),
    truncated: z.boolean().describe('Part of the session’s text was not indexed (a cap per recording was reached)'),
  })
  .meta({ id: 'RecordingSearchSession' });

const DateText = z.string().max(40, 'dates are at most 40 characters');

export const searchRecordings = defineRoute({
  id: 'recording.search-all',
  method: 'GET',
  path: '/api/recording/search',
  tag: 'sessions',
  summary:
    'Sessions whose recorded text contains q (case-insensitive, literal: % and _ are ordinary characters): terminal ' +
    'output without escape sequences, typed input (when input capture is on), commands and file-transfer paths. ' +
    'Only ended sessions are indexed (within seconds of their end); a live one is searched in its player. Newest ' +
    'sessions first, each with its first hits; limited to the sessions the caller may see in the session list.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  query: z.object({
    q: z
      .string({ error: `q is the text to find (${RECORDING_SEARCH_MIN} to ${RECORDING_SEARCH_MAX} characters)` })
      .min(RECORDING_SEARCH_MIN, `q is at least ${RECORDING_SEARCH_MIN} characters`)
      .max(RECORDING_SEARCH_MAX, `q is at most ${RECORDING_SEARCH_MAX} characters`)
      .refine((q) => !CONTROL.test(q), { error: 'q is one line of text, without control characters' })
      .refine((q) => q.trim().length >= RECORDING_SEARCH_MIN, {
        error: `q is at least ${RECORDING_SEARCH_MIN} characters besides spaces`,
      }),
    kind: z
      .string()
      .max(60, 'kind is a comma-separated list of output, input, command, file')
      .transform((text) => [...new Set(text.split(',').map((k) => k.trim()))].filter(Boolean))
      .pipe(
        z.array(
          z.enum(RECORDING_TEXT_KINDS, { error: 'kind is a comma-separated list of output, input, command, file' }),
        ),
      )
      .optional()
      .describe('Only these kinds of text (comma-separated); all when absent'),
    since: DateText.optional().describe('Sessions started at or after (default 2020-01-01)'),
    until: DateText.optional().describe('Sessions started at or before (default now)'),
    limit: z.coerce
      .number({ error: 'limit must be a number of sessions' })
      .int('limit must be a whole number')
      .min(1, 'limit is at least 1')
      .max(50, 'limit is at most 50')
      .default(20),
    cursor: z.string().max(200, 'cursor is at most 200 characters').optional(),
  }),
  response: z.object({
    sessions: z.array(RecordingSearchSession),
    next_cursor: z.string().nullable(),
  }),
  errors: { 400: 'q missing, shorter than 3 or longer than 200 characters, or another parameter is wrong' },
});

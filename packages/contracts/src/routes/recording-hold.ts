import { z } from 'zod';
import { defineRoute } from '../route.js';
import { Timestamp } from './common.js';

/** Longest reason for placing or lifting a legal hold, in characters. */
export const LEGAL_HOLD_REASON_MAX = 500;

/**
 * Characters a reason may not contain: control characters (CR, LF, tab, NUL, DEL, C1), line and
 * paragraph separators, bidirectional embeddings, overrides and isolates (text that reads other
 * than it is stored in the audit trail), and lone surrogates. HTML is ordinary text.
 */
const FORBIDDEN_IN_REASON = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\p{Cs}]/u;

/** Why a hold is placed or lifted: one line of 1 to 500 characters, trimmed and NFC-normalised. */
export const LegalHoldReason = z
  .string({ error: 'reason is required: say why (1 to 500 characters)' })
  .refine((text) => !FORBIDDEN_IN_REASON.test(text), {
    error: 'reason must be one line of text, without control characters (line breaks, tabs) or direction overrides',
  })
  .transform((text) => text.normalize('NFC').trim())
  .pipe(
    z
      .string()
      .min(1, 'reason is required: say why (1 to 500 characters)')
      .max(LEGAL_HOLD_REASON_MAX, `reason is at most ${LEGAL_HOLD_REASON_MAX} characters`),
  );

/** A recording's legal hold: while held, retention never removes it. */
export const LegalHold = z
  .object({
    held: z.boolean(),
    by: z.string().nullable().describe('Email of who placed the hold; null when not held'),
    at: Timestamp.nullable().describe('When the hold was placed; null when not held'),
    reason: z.string().nullable().describe('Why it was placed; null when not held'),
  })
  .meta({ id: 'LegalHold' });

const holdParams = z.object({ id: z.uuid({ error: 'Not a session id' }) });
const holdBody = z.object({ reason: LegalHoldReason });
const holdAnswer = z.object({ message: z.string(), legal_hold: LegalHold });

export const placeRecordingHold = defineRoute({
  id: 'recording.hold.placed',
  method: 'PUT',
  path: '/api/recording/{id}/hold',
  tag: 'sessions',
  summary:
    'Places a legal hold on a recording (live or finished): retention never removes it while held. Needs ' +
    'manage-legal-hold and the right to watch the recording (list-recording and its host in reach). Audited with the reason.',
  access: { kind: 'permissions', anyOf: ['manage-legal-hold'] },
  params: holdParams,
  body: holdBody,
  response: holdAnswer,
  errors: {
    400: 'Not a session id, or the reason is missing, too long or not one line of text',
    404: 'No session with that id that the caller may see',
    409: 'The recording is on hold already',
  },
});

export const liftRecordingHold = defineRoute({
  id: 'recording.hold.lifted',
  method: 'DELETE',
  path: '/api/recording/{id}/hold',
  tag: 'sessions',
  summary:
    'Lifts a recording’s legal hold: retention may remove it again. Same rights as placing one; audited with the reason.',
  access: { kind: 'permissions', anyOf: ['manage-legal-hold'] },
  params: holdParams,
  body: holdBody,
  response: holdAnswer,
  errors: {
    400: 'Not a session id, or the reason is missing, too long or not one line of text',
    404: 'No session with that id that the caller may see',
    409: 'The recording is not on hold',
  },
});

import { LEGAL_HOLD_REASON_MAX } from '@gatehouse/contracts';
import { required } from '../body';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import type { MockRecording } from '../types';

// What the server refuses in a reason (one line, no control characters or direction overrides).
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

function reasonOf(body: unknown): string {
  const reason = required(body, 'reason', 'reason is required: say why (1 to 500 characters)').normalize('NFC');
  if (NOT_ONE_LINE.test(reason))
    throw new MockError(
      400,
      'reason must be one line of text, without control characters (line breaks, tabs) or direction overrides',
    );
  const trimmed = reason.trim();
  if (trimmed === '') throw new MockError(400, 'reason is required: say why (1 to 500 characters)');
  if (trimmed.length > LEGAL_HOLD_REASON_MAX)
    throw new MockError(400, `reason is at most ${LEGAL_HOLD_REASON_MAX} characters`);
  return trimmed;
}

/** Legal hold in the mock: place and lift with a reason, 409 when there is nothing to change. */
export function holdHandlers(
  context: MockContext,
  recordingAt: (id: string | undefined) => MockRecording,
): NamedHandler[] {
  return [
    route(context, 'placeRecordingHold', ({ params, body, caller }) => {
      const row = recordingAt(params.id);
      const reason = reasonOf(body);
      if (row.legal_hold.held)
        throw new MockError(
          409,
          `This recording is on legal hold already (placed by ${row.legal_hold.by ?? 'someone'}).`,
        );
      row.legal_hold = { held: true, by: caller, at: new Date().toISOString(), reason };
      return { message: 'Legal hold placed.', legal_hold: row.legal_hold };
    }),
    route(context, 'liftRecordingHold', ({ params, body }) => {
      const row = recordingAt(params.id);
      reasonOf(body);
      if (!row.legal_hold.held)
        throw new MockError(409, 'This recording is not on legal hold: there is nothing to lift.');
      row.legal_hold = { held: false, by: null, at: null, reason: null };
      return { message: 'Legal hold lifted.', legal_hold: row.legal_hold };
    }),
  ];
}

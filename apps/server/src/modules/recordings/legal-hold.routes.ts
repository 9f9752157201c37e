import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/**
 * Handlers of the legal-hold calls. The audit hook writes one entry per call (action
 * recording.hold.placed or recording.hold.lifted, the recording as target, the caller as actor);
 * the detail carries the reason given, whatever the outcome.
 */
export function legalHoldHandlers(s: Services): Pick<Handlers, 'placeRecordingHold' | 'liftRecordingHold'> {
  return {
    placeRecordingHold: ({ principal, params, body, request }) => {
      request.auditNote.detail = { recording: params.id, by: principal.email, reason: body.reason };
      return s.legalHolds.place(principal, params.id, body.reason);
    },
    liftRecordingHold: ({ principal, params, body, request }) => {
      request.auditNote.detail = { recording: params.id, by: principal.email, reason: body.reason };
      return s.legalHolds.lift(principal, params.id);
    },
  };
}

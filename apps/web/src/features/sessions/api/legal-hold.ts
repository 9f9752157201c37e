import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateSessions } from './session-keys';

/** Placing or lifting a session's legal hold. */
export type HoldAction = 'place' | 'lift';

/** What a hold change needs: the session (its recording id), which change, and why. */
export interface HoldChange {
  id: string;
  action: HoldAction;
  reason: string;
}

/**
 * PUT api/recording/{id}/hold (place) or DELETE (lift), with the reason; needs manage-legal-hold.
 * The list and the detail reload after, so the chip follows.
 */
export function useChangeLegalHold() {
  const invalidate = useInvalidateSessions();
  return useMutation({
    mutationFn: ({ id, action, reason }: HoldChange) =>
      action === 'place'
        ? apiCall(API.placeRecordingHold, { params: { id }, body: { reason } })
        : apiCall(API.liftRecordingHold, { params: { id }, body: { reason } }),
    onSuccess: invalidate,
  });
}

import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateSessions } from './session-keys';

/** What terminating needs: the session (its recording id) and its host's id. */
export interface TerminateTarget {
  id: string;
  hostId: string | null;
}

/** DELETE api/tunnel/{id} with the host-id header (spec §7.3); the list reloads after. */
export function useTerminateSession() {
  const invalidate = useInvalidateSessions();
  return useMutation({
    mutationFn: ({ id, hostId }: TerminateTarget) =>
      apiCall(API.terminateTunnel, { params: { id }, headers: hostId ? { 'host-id': hostId } : undefined }),
    onSuccess: invalidate,
  });
}

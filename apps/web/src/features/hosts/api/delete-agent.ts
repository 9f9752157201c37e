import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateHosts } from './host-keys';

/** DELETE api/agent/{id}: disconnects the host and revokes its credential. */
export function useDeleteAgent() {
  const invalidate = useInvalidateHosts();
  return useMutation({
    mutationFn: (id: string) => apiCall(API.deleteAgent, { params: { id } }),
    onSuccess: invalidate,
  });
}

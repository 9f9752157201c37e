import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateGroups } from './group-keys';

/** DELETE api/group/{name}/agent/{id}. */
export function useRemoveGroupAgent() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ group, id }: { group: string; id: string }) =>
      apiCall(API.removeGroupAgent, { params: { name: group, id } }),
    onSuccess: invalidate,
  });
}

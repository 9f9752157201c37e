import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateGroups } from './group-keys';

/** PUT api/group/{name}/groups; 409 naming the cycle when the nesting would make one. */
export function useAddChildGroups() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ group, children }: { group: string; children: string[] }) =>
      apiCall(API.addChildGroups, { params: { name: group }, body: { groups: children } }),
    onSuccess: invalidate,
  });
}

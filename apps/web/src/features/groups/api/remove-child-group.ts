import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateGroups } from './group-keys';

/** DELETE api/group/{name}/group/{child}: takes a child group out. */
export function useRemoveChildGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ group, child }: { group: string; child: string }) =>
      apiCall(API.removeChildGroup, { params: { name: group, child } }),
    onSuccess: invalidate,
  });
}

import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateGroups } from './group-keys';

/** DELETE api/group/{name}/user/{email}. */
export function useRemoveGroupUser() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ group, email }: { group: string; email: string }) =>
      apiCall(API.removeGroupUser, { params: { name: group, email } }),
    onSuccess: invalidate,
  });
}

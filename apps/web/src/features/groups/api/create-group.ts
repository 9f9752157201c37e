import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateGroups } from './group-keys';

/** POST api/group {name}; 409 when the name is taken (without regard to case). */
export function useCreateGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (name: string) => apiCall(API.createGroup, { body: { name } }),
    onSuccess: invalidate,
  });
}

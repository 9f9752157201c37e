import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateUsers } from './invalidate';

/** DELETE api/user/{email}. */
export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (email: string) => apiCall(API.deleteUser, { params: { email } }),
    onSuccess: invalidate,
  });
}

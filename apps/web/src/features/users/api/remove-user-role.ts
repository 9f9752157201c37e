import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateUsers } from './invalidate';

/** DELETE api/user/{email}/role/{role}: takes a role from the user. */
export function useRemoveUserRole(email: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (role: string) => apiCall(API.removeUserRole, { params: { email, role } }),
    onSuccess: invalidate,
  });
}

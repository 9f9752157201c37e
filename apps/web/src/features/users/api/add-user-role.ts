import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateUsers } from './invalidate';

/** PUT api/role/{name}/users with this one user: gives them the role. */
export function useAddUserRole(email: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (role: string) => apiCall(API.setRoleUsers, { params: { name: role }, body: { users: [email] } }),
    onSuccess: invalidate,
  });
}

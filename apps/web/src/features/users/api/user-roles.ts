import { useMutation, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateUsers } from './invalidate';
import { USERS_KEY } from './list-users';

/** GET api/user/{email}/role: the roles a user holds, with their permissions. */
export function useUserRoles(email: string, enabled: boolean) {
  return useQuery({
    queryKey: [...USERS_KEY, 'roles', email],
    queryFn: ({ signal }) => apiCall(API.userRoles, { params: { email }, signal }),
    enabled,
  });
}

/** DELETE api/user/{email}/role/{role}. */
export function useRemoveUserRole(email: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (role: string) => apiCall(API.removeUserRole, { params: { email, role } }),
    onSuccess: invalidate,
  });
}

/** PUT api/role/{name}/users with this one user: gives them the role. */
export function useAddUserRole(email: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (role: string) => apiCall(API.setRoleUsers, { params: { name: role }, body: { users: [email] } }),
    onSuccess: invalidate,
  });
}

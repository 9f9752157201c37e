import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { USERS_KEY } from './list-users';

/** GET api/user/{email}/role: the roles a user holds, with their permissions. */
export function useUserRoles(email: string, enabled: boolean) {
  return useQuery({
    queryKey: [...USERS_KEY, 'roles', email],
    queryFn: ({ signal }) => apiCall(API.userRoles, { params: { email }, signal }),
    enabled,
  });
}

import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { USERS_KEY } from './list-users';

/**
 * GET api/role (needs list-user-role), reduced to the names of the roles the caller may give:
 * the server refuses a role with a permission the caller does not hold, so those are not offered.
 */
export function useGrantableRoleNames(enabled: boolean, held: readonly string[]) {
  return useQuery({
    queryKey: [...USERS_KEY, 'roles-to-grant'],
    queryFn: ({ signal }) => apiCall(API.listRoles, { signal }),
    enabled,
    staleTime: 60_000,
    select: (answer) =>
      answer.roles.filter((role) => role.permissions.every((p) => held.includes(p))).map((role) => role.name),
  });
}

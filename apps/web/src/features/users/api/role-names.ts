import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { USERS_KEY } from './list-users';

/** GET api/role, reduced to the role names for the add-role picker (needs list-user-role). */
export function useRoleNames(enabled: boolean) {
  return useQuery({
    queryKey: [...USERS_KEY, 'role-names'],
    queryFn: async ({ signal }) => (await apiCall(API.listRoles, { signal })).roles.map((role) => role.name),
    enabled,
    staleTime: 60_000,
  });
}

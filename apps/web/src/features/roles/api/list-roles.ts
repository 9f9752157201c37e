import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { ROLE_KEYS } from './role-keys';

/** A role as the list shows it: name, permissions, built-in flag and holder count. */
export type RoleItem = ResponseOf<Routes['listRoles']>['roles'][number];

/** GET api/role. */
export const rolesQuery = queryOptions({
  queryKey: ROLE_KEYS.list,
  queryFn: ({ signal }) => apiCall(API.listRoles, { signal }),
});

/** Every role, by name. */
export function useRoles() {
  return useQuery(rolesQuery);
}

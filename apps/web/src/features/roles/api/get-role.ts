import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { ROLE_KEYS } from './role-keys';

/** One role with the emails of its holders. */
export type RoleDetail = ResponseOf<Routes['getRole']>['role'];

/** GET api/role/{name}. */
export function roleQuery(name: string) {
  return queryOptions({
    queryKey: ROLE_KEYS.detail(name),
    queryFn: ({ signal }) => apiCall(API.getRole, { params: { name }, signal }),
  });
}

/** The role named, with its holders; nothing is fetched while `name` is null. */
export function useRole(name: string | null) {
  return useQuery({ ...roleQuery(name ?? ''), enabled: name !== null });
}

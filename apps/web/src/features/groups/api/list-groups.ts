import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { GROUP_KEYS } from './group-keys';

/** A group with its direct users (emails), agents and child groups. */
export type GroupItem = ResponseOf<Routes['listGroups']>['groups'][number];

/** GET api/group: sorted by name without regard to case. */
export const groupsQuery = queryOptions({
  queryKey: GROUP_KEYS.list,
  queryFn: ({ signal }) => apiCall(API.listGroups, { signal }),
});

/** Every group. */
export function useGroups() {
  return useQuery(groupsQuery);
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** One user as the list shows it. */
export type UserRow = ResponseOf<Routes['listUsers']>['users'][number];

/** Columns the server sorts by. */
export type UserSortField = 'email' | 'name' | 'created_at';

/** One page of the user list: paging, sorting and search, all done by the server. */
export interface UserListParams {
  page: number;
  pageSize: number;
  sort: UserSortField | undefined;
  order: 'asc' | 'desc';
  q: string;
}

/** Every users query starts with this key, so one invalidation refreshes them all. */
export const USERS_KEY = ['users'] as const;

/** The query values of GET api/user for one page. */
export function listQuery(params: UserListParams): Record<string, string | undefined> {
  const q = params.q.trim();
  return {
    limit: String(params.pageSize),
    offset: String(params.page * params.pageSize),
    sort: params.sort,
    order: params.sort ? params.order : undefined,
    q: q === '' ? undefined : q,
  };
}

/** GET api/user with limit, offset, sort, order and q; the previous page stays while the next loads. */
export function useUserList(params: UserListParams) {
  return useQuery({
    queryKey: [...USERS_KEY, 'list', params],
    queryFn: ({ signal }) => apiCall(API.listUsers, { query: listQuery(params), signal }),
    placeholderData: keepPreviousData,
  });
}

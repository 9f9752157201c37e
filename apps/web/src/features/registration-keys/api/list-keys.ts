import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { KEY_KEYS } from './key-keys';

/** A registration key as listed: never its secret. */
export type KeyItem = ResponseOf<Routes['listApiKeys']>['keys'][number];

/** GET api/apikey (admin role only), newest first. */
export const keysQuery = queryOptions({
  queryKey: KEY_KEYS.list,
  queryFn: ({ signal }) => apiCall(API.listApiKeys, { signal }),
});

/** The registration keys; `enabled` is false for users the server would refuse. */
export function useKeys(enabled: boolean) {
  return useQuery({ ...keysQuery, enabled });
}

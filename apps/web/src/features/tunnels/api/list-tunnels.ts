import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { TUNNEL_KEYS } from './tunnel-keys';

/** Every definition, by type. */
export type TunnelLists = ResponseOf<Routes['listAllTunnels']>;
/** One tunnel definition. */
export type TunnelItem = TunnelLists['ssh'][number];
/** A kind of tunnel definition. */
export type TunnelType = TunnelItem['type'];

/** The kinds, in the order of the tabs. */
export const TUNNEL_TYPES: readonly TunnelType[] = ['ssh', 'rdp', 'generic', 'agent'];

/** GET api/tunneldefinition/all (list-all-tunnel-definitions). */
export const allTunnelsQuery = queryOptions({
  queryKey: TUNNEL_KEYS.all,
  queryFn: ({ signal }) => apiCall(API.listAllTunnels, { signal }),
});

/** Every tunnel definition, by type. */
export function useAllTunnels() {
  return useQuery(allTunnelsQuery);
}

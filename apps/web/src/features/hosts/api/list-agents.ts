import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { HOST_KEYS } from './host-keys';

/** An enrolled host as listed. */
export type AgentItem = ResponseOf<Routes['listAgents']>['agents'][number];

/** The view refresh timer of spec §9; the socket refreshes the list sooner on every change. */
const REFRESH_MS = 120_000;

/** GET api/agent: by hostname, then connected first. */
export const agentsQuery = queryOptions({
  queryKey: HOST_KEYS.list,
  queryFn: ({ signal }) => apiCall(API.listAgents, { signal }),
  refetchInterval: REFRESH_MS,
});

/** Every enrolled host, kept fresh by the console socket. */
export function useAgents() {
  return useQuery(agentsQuery);
}

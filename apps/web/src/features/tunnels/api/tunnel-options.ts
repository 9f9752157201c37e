import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { TUNNEL_KEYS } from './tunnel-keys';

/** A host a definition can point at. */
export type HostOption = ResponseOf<Routes['listAgents']>['agents'][number];
/** A user as GET api/user lists them. */
export type UserOption = ResponseOf<Routes['listUsers']>['users'][number];

/** GET api/agent under the shared agents key, so the live socket keeps it fresh here too. */
export function useHostOptions(enabled = true) {
  return useQuery({
    queryKey: QUERY_KEYS.agents,
    queryFn: ({ signal }) => apiCall(API.listAgents, { signal }),
    enabled,
  });
}

/** GET api/group, names only; `enabled` is false without list-group. */
export function useGroupOptions(enabled: boolean) {
  return useQuery({
    queryKey: TUNNEL_KEYS.groups,
    queryFn: ({ signal }) => apiCall(API.listGroups, { signal }),
    enabled,
    select: (answer) => answer.groups.map((group) => group.name),
  });
}

/**
 * GET api/user without a limit: every user the caller may see, to name the users a definition
 * admits (it lists only their ids). Holders of list-user see everyone.
 */
export function useUserDirectory(enabled: boolean) {
  return useQuery({
    queryKey: TUNNEL_KEYS.users,
    queryFn: ({ signal }) => apiCall(API.listUsers, { signal }),
    enabled,
    staleTime: 30_000,
  });
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** An enrolled host, as offered for adding to a group. */
export type AgentChoice = ResponseOf<Routes['listAgents']>['agents'][number];

/**
 * GET api/agent (list-host), under the shared key the live socket refreshes, so the choice
 * follows enrolments. Nothing is fetched while `enabled` is false.
 */
export function useAgentChoices(enabled: boolean) {
  return useQuery({
    queryKey: QUERY_KEYS.agents,
    queryFn: ({ signal }) => apiCall(API.listAgents, { signal }),
    enabled,
  });
}

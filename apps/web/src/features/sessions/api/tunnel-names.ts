import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** The names of the tunnel definitions the user may use (every one with list-all-tunnel-definitions), sorted. */
export function useTunnelNames() {
  return useQuery({
    // Under the tunnels prefix: a tunnel change anywhere refreshes the filter's choices.
    queryKey: [...QUERY_KEYS.tunnels, 'session-filter-names'],
    queryFn: ({ signal }) => apiCall(API.listTunnels, { signal }),
    select: (lists) =>
      [...new Set([...lists.ssh, ...lists.rdp, ...lists.generic, ...lists.agent].map((d) => d.name))].sort((a, b) =>
        a.localeCompare(b),
      ),
    staleTime: 60_000,
  });
}

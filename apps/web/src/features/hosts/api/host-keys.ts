import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** Query keys of the hosts feature; the list uses the shared key the live socket refreshes. */
export const HOST_KEYS = {
  list: QUERY_KEYS.agents,
  config: (id: string) => ['hosts', 'config', id] as const,
  registrationKeys: [...QUERY_KEYS.registrationKeys, 'for-hosts'],
} as const;

/**
 * Refreshes the agent list, the navigation counts and the tunnel lists after a change
 * (deleting a host deletes the tunnel definitions to it).
 */
export function useInvalidateHosts(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: QUERY_KEYS.agents }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.tunnels }),
    ]);
  }, [client]);
}

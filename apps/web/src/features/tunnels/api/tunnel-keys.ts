import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** Query keys of the tunnels feature, all under the shared prefix other screens invalidate. */
export const TUNNEL_KEYS = {
  all: [...QUERY_KEYS.tunnels, 'all'],
  groups: [...QUERY_KEYS.tunnels, 'group-options'],
  users: [...QUERY_KEYS.tunnels, 'user-directory'],
} as const;

/** Refreshes the tunnel lists and the navigation counts after a change. */
export function useInvalidateTunnels(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: QUERY_KEYS.tunnels }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
    ]);
  }, [client]);
}

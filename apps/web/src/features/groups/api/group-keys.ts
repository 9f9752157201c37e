import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** Query keys of the groups feature. */
export const GROUP_KEYS = {
  all: ['groups'],
  list: ['groups', 'list'],
} as const;

/** Refreshes the groups, the navigation counts and the tunnel lists (spec §4) after a change. */
export function useInvalidateGroups(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: GROUP_KEYS.all }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.tunnels }),
    ]);
  }, [client]);
}

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { USERS_KEY } from './list-users';

/** Refreshes every users query and the navigation counts after a change. */
export function useInvalidateUsers(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: USERS_KEY }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
      // Spec §4: the tunnel list is refreshed after every user change.
      client.invalidateQueries({ queryKey: QUERY_KEYS.tunnels }),
    ]);
  }, [client]);
}

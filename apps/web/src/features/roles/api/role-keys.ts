import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** Query keys of the roles feature. */
export const ROLE_KEYS = {
  all: ['roles'],
  list: ['roles', 'list'],
  detail: (name: string) => ['roles', 'detail', name] as const,
} as const;

/** Refreshes every roles query, the navigation counts and the tunnel lists (spec §4) after a change. */
export function useInvalidateRoles(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: ROLE_KEYS.all }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.tunnels }),
    ]);
  }, [client]);
}

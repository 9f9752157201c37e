import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** Query keys of the registration keys feature. */
export const KEY_KEYS = {
  all: QUERY_KEYS.registrationKeys,
  list: [...QUERY_KEYS.registrationKeys, 'list'],
} as const;

/** Refreshes the key list and the navigation counts after a change. */
export function useInvalidateKeys(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: KEY_KEYS.all }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
    ]);
  }, [client]);
}

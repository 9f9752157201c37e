import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** Query keys of the sessions feature, under the shared prefix the console socket invalidates. */
export const SESSION_KEYS = {
  list: [...QUERY_KEYS.sessions, 'list'],
  detail: (id: string) => [...QUERY_KEYS.sessions, 'detail', id] as const,
  verify: (id: string) => [...QUERY_KEYS.sessions, 'verify', id] as const,
  transfers: (id: string) => [...QUERY_KEYS.sessions, 'transfers', id] as const,
} as const;

/** The view refresh timer of spec §9: every 120 seconds. */
export const REFRESH_MS = 120_000;

/** Reloads the session list and details and the navigation counts, after a termination. */
export function useInvalidateSessions(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: QUERY_KEYS.sessions }),
      client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
    ]);
  }, [client]);
}

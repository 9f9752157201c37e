import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../../lib/api-client';
import type { NavigationCounts } from '../../../lib/feature';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { healthSummary } from '../model/health';
import { SYSTEM_KEYS, SYSTEM_ROUTES } from './system-routes';

/** What GET /api/pods answers. */
export type PodsAnswer = ResponseOf<Routes['listPods']>;
/** One component with its health check (spec §3 Pod). */
export type Pod = PodsAnswer['pods'][number];

/** The screen checks again this often on its own, besides the cluster socket's updates. */
export const PODS_REFRESH_MS = 30_000;

/** Writes a fresh component list's summary into the navigation counts, so both always agree. */
export function syncNavigationCounts(
  setCounts: (update: (old: NavigationCounts | undefined) => NavigationCounts | undefined) => void,
  pods: readonly Pod[],
): void {
  const { summary, unhealthy } = healthSummary(pods);
  setCounts((old) => (old ? { ...old, systemStatusHealthSummary: summary, totalUnhealthyPods: unhealthy } : old));
}

/**
 * GET /api/pods: every component checked now, refreshed every 30 s and whenever the cluster
 * socket reports a change. A 401 signs out (spec §8), as every signed-in call does.
 */
export function usePods() {
  const queryClient = useQueryClient();
  const pods = useQuery({
    queryKey: SYSTEM_KEYS.pods,
    queryFn: ({ signal }) => apiCall(SYSTEM_ROUTES.listPods, { signal }),
    refetchInterval: PODS_REFRESH_MS,
    staleTime: 5_000,
  });
  const data = pods.data;
  useEffect(() => {
    if (!data) return;
    syncNavigationCounts(
      (update) => queryClient.setQueryData<NavigationCounts>(QUERY_KEYS.navigationCounts, update),
      data.pods,
    );
  }, [data, queryClient]);
  return pods;
}

import type { CLUSTER_EVENTS } from '@gatehouse/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { NavigationCounts } from '../../../lib/feature';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { healthSummary } from '../model/health';
import type { Pod, PodsAnswer } from './list-pods';
import { SYSTEM_KEYS } from './system-routes';

/** The cluster status socket's event (typed against the contract, so no contract code enters the initial bundle). */
export const CLUSTER_UPDATE_EVENT: (typeof CLUSTER_EVENTS)['statefulsetUpdate'] = 'k8s_statefulset_update';

const STATES = new Set(['Running', 'Failed', 'Unknown']);

function isPod(value: unknown): value is Pod {
  if (typeof value !== 'object' || value === null) return false;
  const pod = value as Record<string, unknown>;
  return (
    typeof pod.name === 'string' &&
    typeof pod.status === 'string' &&
    STATES.has(pod.status) &&
    typeof pod.detail === 'string' &&
    typeof pod.checked_at === 'string'
  );
}

/** The components an update carries, or null when it is not the documented shape. */
export function podsOfUpdate(payload: unknown): Pod[] | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const pods = (payload as { pods?: unknown }).pods;
  return Array.isArray(pods) && pods.every(isPod) ? pods : null;
}

/**
 * Spec §4, §7.3: a k8s_statefulset_update puts the components it carries on the status screen
 * and their summary beside the navigation entry, without another round of health checks. An
 * update of another shape makes both load again.
 */
export function applyClusterUpdate(queryClient: QueryClient, payload: unknown): void {
  const pods = podsOfUpdate(payload);
  if (!pods) {
    void queryClient.invalidateQueries({ queryKey: SYSTEM_KEYS.pods });
    void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts });
    return;
  }
  queryClient.setQueryData<PodsAnswer>(SYSTEM_KEYS.pods, { pods });
  const { summary, unhealthy } = healthSummary(pods);
  queryClient.setQueryData<NavigationCounts>(QUERY_KEYS.navigationCounts, (old) =>
    old ? { ...old, systemStatusHealthSummary: summary, totalUnhealthyPods: unhealthy } : old,
  );
}

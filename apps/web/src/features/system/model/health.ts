/** A component's state as GET /api/pods answers it. */
export type PodState = 'Running' | 'Failed' | 'Unknown';

/** The system health summary of spec §4. */
export type HealthSummary = 'Healthy' | 'Problem' | 'Problems';

/**
 * Spec §4: zero components not Running is Healthy, one is Problem, more is Problems; with the
 * number not Running (the navigation's totalUnhealthyPods).
 */
export function healthSummary(pods: readonly { status: string }[]): { summary: HealthSummary; unhealthy: number } {
  const unhealthy = pods.filter((pod) => pod.status !== 'Running').length;
  return { summary: unhealthy === 0 ? 'Healthy' : unhealthy === 1 ? 'Problem' : 'Problems', unhealthy };
}

import type { RouteRef } from '../../../lib/api-routes';

/**
 * The status screen's calls, checked against the contract like lib/api-routes (kept here: only
 * this screen calls them).
 */
export const SYSTEM_ROUTES = {
  listPods: { name: 'listPods', method: 'GET', path: '/api/pods' },
  podLogs: { name: 'podLogs', method: 'GET', path: '/api/pods/{name}/logs' },
} as const satisfies { listPods: RouteRef<'listPods'>; podLogs: RouteRef<'podLogs'> };

/** Query keys of the status screen (the cluster socket writes the component list). */
export const SYSTEM_KEYS = {
  pods: ['system', 'pods'],
  logs: (name: string) => ['system', 'pods', name, 'logs'] as const,
} as const;

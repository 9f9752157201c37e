import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { SYSTEM_KEYS, SYSTEM_ROUTES } from './system-routes';

/** One component with its recent log lines (JSON lines, oldest first). */
export type PodWithLogs = ResponseOf<Routes['podLogs']>['pods'][number];

/** As many lines as the server keeps per component. */
export const LOG_LINES = 500;
/** While the viewer follows the log, it asks again this often. */
export const FOLLOW_REFRESH_MS = 5_000;

/** The answer named another component than the one asked for (spec §7.2: its log is not shown). */
export class OtherComponentError extends Error {
  constructor(
    readonly requested: string,
    readonly answered: string | undefined,
  ) {
    super(`asked for ${requested}, answered ${answered ?? 'nothing'}`);
    this.name = 'OtherComponentError';
  }
}

/** GET /api/pods/{name}/logs: the component's log, only when the first pod answered is that component. */
export async function fetchPodLogs(name: string, signal?: AbortSignal): Promise<PodWithLogs> {
  const answer = await apiCall(SYSTEM_ROUTES.podLogs, {
    params: { name },
    query: { limit: String(LOG_LINES) },
    ...(signal ? { signal } : {}),
  });
  const first = answer.pods[0];
  if (!first || first.name !== name) throw new OtherComponentError(name, first?.name);
  return first;
}

/**
 * A component's recent log lines (admin role only: `enabled` is false for others, whom the
 * server would refuse). `follow` asks again every 5 s.
 */
export function usePodLogs(name: string | null, enabled: boolean, follow: boolean) {
  return useQuery({
    queryKey: SYSTEM_KEYS.logs(name ?? ''),
    queryFn: ({ signal }) => fetchPodLogs(name ?? '', signal),
    enabled: enabled && name !== null,
    refetchInterval: follow ? FOLLOW_REFRESH_MS : false,
    retry: (failures, error) => !(error instanceof OtherComponentError) && failures < 2,
  });
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { RouteRef } from '../../../lib/api-routes';

/** The dashboard's answer: session charts and agents per day. */
export type Dashboard = ResponseOf<Routes['getDashboard']>;
/** The session charts of spec §3. */
export type SessionCharts = Dashboard['recordings'];
/** One bucket of a session chart. */
export type ChartBucket = SessionCharts['past24Hours'][number];
/** One day of the agents chart. */
export type AgentDay = Dashboard['agents_dashboard']['days'][number];

/** GET /api/agent/dashboard, checked against the contract like lib/api-routes (kept here: only this screen calls it). */
const DASHBOARD_ROUTE = {
  name: 'getDashboard',
  method: 'GET',
  path: '/api/agent/dashboard',
} as const satisfies RouteRef<'getDashboard'>;

/** The view refresh timer of spec §9. */
export const DASHBOARD_REFRESH_MS = 120_000;

/** The browser's IANA time zone, so days and hours begin where the user is; undefined lets the server choose. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** The last 30 days (the server's default window) in the given time zone. */
export function dashboardQuery(tz: string | undefined) {
  return queryOptions({
    queryKey: ['dashboard', tz ?? 'server'],
    queryFn: ({ signal }) => apiCall(DASHBOARD_ROUTE, { query: { tz }, signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}

/** The dashboard's data, refreshed every 120 s. */
export function useDashboard() {
  return useQuery(dashboardQuery(browserTimeZone()));
}

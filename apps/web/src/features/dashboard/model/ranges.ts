import type { ChartBucket, SessionCharts } from '../api/get-dashboard';

/** The session chart's ranges (spec §3 Session charts, §9), in the selector's order. */
export const SESSION_RANGES = ['past24Hours', 'pastWeek', 'pastMonth', 'pastAll', 'longRunning'] as const;
/** One range of the session chart. */
export type SessionRange = (typeof SESSION_RANGES)[number];

/** Buckets are hours for the past 24 hours and days for every other range. */
export type BucketUnit = 'hour' | 'day';

type TotalKey = 'totalPast24Hours' | 'totalPastWeek' | 'totalPastMonth' | 'totalAll' | 'totalLongRunning';

const TOTAL_OF: Record<SessionRange, TotalKey> = {
  past24Hours: 'totalPast24Hours',
  pastWeek: 'totalPastWeek',
  pastMonth: 'totalPastMonth',
  pastAll: 'totalAll',
  longRunning: 'totalLongRunning',
};

/** The buckets of one range, oldest first. */
export function rangeBuckets(charts: SessionCharts, range: SessionRange): readonly ChartBucket[] {
  return [...charts[range]].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

/** The total the server counts for a range (for long running: sessions live now for 24 hours or more). */
export function rangeTotal(charts: SessionCharts, range: SessionRange): number {
  return charts[TOTAL_OF[range]];
}

/** Whether a range's buckets are hours or days. */
export function rangeUnit(range: SessionRange): BucketUnit {
  return range === 'past24Hours' ? 'hour' : 'day';
}

/** True for a range name, so a remembered or linked range can be trusted. */
export function isSessionRange(value: unknown): value is SessionRange {
  return typeof value === 'string' && (SESSION_RANGES as readonly string[]).includes(value);
}

/** True when no session was ever recorded and none is live: the dashboard shows its empty state. */
export function hasNoSessions(charts: SessionCharts): boolean {
  return charts.totalAll === 0 && charts.live === 0;
}

/**
 * Sessions started today (local day): the daily bucket of the past week that begins today.
 * The server's days begin at midnight in the time zone the console sent.
 */
export function sessionsToday(charts: SessionCharts, now: Date = new Date()): number {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
  const bucket = charts.pastWeek.find((b) => {
    const start = Date.parse(b.start);
    return start >= today && start < tomorrow;
  });
  return bucket?.sessions ?? 0;
}

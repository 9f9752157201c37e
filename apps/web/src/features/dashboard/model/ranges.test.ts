import { describe, expect, it } from 'vitest';
import type { ChartBucket, SessionCharts } from '../api/get-dashboard';
import {
  SESSION_RANGES,
  hasNoSessions,
  isSessionRange,
  rangeBuckets,
  rangeTotal,
  rangeUnit,
  sessionsToday,
} from './ranges';

const day = (year: number, month: number, date: number, sessions: number): ChartBucket => {
  const start = new Date(year, month, date);
  return { start: start.toISOString(), label: start.toDateString(), sessions };
};

function charts(patch: Partial<SessionCharts> = {}): SessionCharts {
  return {
    past24Hours: [],
    pastWeek: [],
    pastMonth: [],
    pastAll: [],
    longRunning: [],
    totalPast24Hours: 1,
    totalPastWeek: 2,
    totalPastMonth: 3,
    totalAll: 4,
    totalLongRunning: 5,
    live: 6,
    ...patch,
  };
}

describe('session chart ranges', () => {
  it('offers the five ranges of spec §3 in order', () => {
    expect(SESSION_RANGES).toEqual(['past24Hours', 'pastWeek', 'pastMonth', 'pastAll', 'longRunning']);
  });

  it('answers the total the server counted for each range, long running being those live now', () => {
    const c = charts();
    expect(SESSION_RANGES.map((range) => rangeTotal(c, range))).toEqual([1, 2, 3, 4, 5]);
  });

  it('puts buckets oldest first whatever order they arrive in', () => {
    const c = charts({ pastWeek: [day(2026, 0, 3, 7), day(2026, 0, 1, 5), day(2026, 0, 2, 6)] });
    expect(rangeBuckets(c, 'pastWeek').map((b) => b.sessions)).toEqual([5, 6, 7]);
  });

  it('uses hours for the past 24 hours and days for the other ranges', () => {
    expect(SESSION_RANGES.map(rangeUnit)).toEqual(['hour', 'day', 'day', 'day', 'day']);
  });

  it('recognises range names only', () => {
    expect(isSessionRange('pastAll')).toBe(true);
    expect(isSessionRange('PastWeek')).toBe(false);
    expect(isSessionRange(3)).toBe(false);
  });

  it('is empty only when no session was ever recorded and none is live', () => {
    expect(hasNoSessions(charts({ totalAll: 0, live: 0 }))).toBe(true);
    expect(hasNoSessions(charts({ totalAll: 0, live: 1 }))).toBe(false);
    expect(hasNoSessions(charts({ totalAll: 3, live: 0 }))).toBe(false);
  });

  it("counts today's sessions from the daily bucket that starts at local midnight", () => {
    const week = [day(2026, 4, 4, 1), day(2026, 4, 5, 2), day(2026, 4, 6, 9)];
    expect(sessionsToday(charts({ pastWeek: week }), new Date(2026, 4, 6, 15, 30))).toBe(9);
    expect(sessionsToday(charts({ pastWeek: week }), new Date(2026, 4, 5, 0, 0))).toBe(2);
    expect(sessionsToday(charts({ pastWeek: week }), new Date(2026, 4, 7, 8))).toBe(0);
  });
});

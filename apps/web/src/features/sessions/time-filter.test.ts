import { describe, expect, it } from 'vitest';
import { parseTimeFilter, timeWindow } from './time-filter';

// A fixed moment in the afternoon (local time), so day boundaries are not near.
const now = new Date(2026, 4, 20, 15, 30, 0);
const HOUR = 3_600_000;

describe('timeWindow', () => {
  it('asks for the spec’s call by default: from 2020-01-01 to now', () => {
    expect(timeWindow('-1', now)).toEqual({ start: '2020-01-01T00:00:00.000Z', end: now.toISOString() });
  });

  it('covers the past 24 hours up to now', () => {
    const window = timeWindow('Past24Hours', now);
    expect(Date.parse(window.end) - Date.parse(window.start)).toBe(24 * HOUR);
    expect(window.end).toBe(now.toISOString());
  });

  it('covers seven local days for the past week: from the start of the day six days back to the end of today', () => {
    const window = timeWindow('PastWeek', now);
    expect(new Date(window.start)).toEqual(new Date(2026, 4, 14, 0, 0, 0, 0));
    expect(new Date(window.end)).toEqual(new Date(2026, 4, 20, 23, 59, 59, 999));
  });

  it('covers thirty local days for the past month (minus 29 days)', () => {
    const window = timeWindow('PastMonth', now);
    expect(new Date(window.start)).toEqual(new Date(2026, 3, 21, 0, 0, 0, 0));
    expect(new Date(window.end)).toEqual(new Date(2026, 4, 20, 23, 59, 59, 999));
  });

  it('starts All from 2001-01-01 without restricting to live sessions', () => {
    expect(timeWindow('All', now)).toEqual({ start: '2001-01-01T00:00:00.000Z', end: now.toISOString() });
  });

  it('asks LongRunning for live sessions of at least 24 hours since 2001-01-01', () => {
    expect(timeWindow('LongRunning', now)).toEqual({
      start: '2001-01-01T00:00:00.000Z',
      end: now.toISOString(),
      live: true,
      minDuration: 86_400,
    });
  });
});

describe('parseTimeFilter', () => {
  it('reads known values and falls back to the default for anything else', () => {
    expect(parseTimeFilter('PastWeek')).toBe('PastWeek');
    expect(parseTimeFilter('-1')).toBe('-1');
    expect(parseTimeFilter('Yesterday')).toBe('-1');
    expect(parseTimeFilter(null)).toBe('-1');
  });
});

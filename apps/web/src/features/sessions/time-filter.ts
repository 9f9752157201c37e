import dayjs from 'dayjs';

/** The session time filter values of spec §3; -1 is the default (the spec's own call). */
export const TIME_FILTERS = ['-1', 'Past24Hours', 'PastWeek', 'PastMonth', 'All', 'LongRunning'] as const;

/** One time filter value. */
export type TimeFilter = (typeof TIME_FILTERS)[number];

/** The numeric forms of the time range (spec §3). */
export const TIME_RANGE_NUMBER: Record<Exclude<TimeFilter, '-1'>, number> = {
  Past24Hours: 0,
  PastWeek: 1,
  PastMonth: 2,
  All: 3,
  LongRunning: 4,
};

/** Sessions live for at least this many seconds are long running (spec §9: 24 hours). */
export const LONG_RUNNING_SECONDS = 86_400;

/** Where the spec's session list starts (§9), and where All and LongRunning start. */
const SPEC_START = '2020-01-01T00:00:00.000Z';
const ALL_START = '2001-01-01T00:00:00.000Z';

/** What a time filter asks the server for: a window, and for LongRunning only live sessions of 24 h or more. */
export interface TimeWindow {
  start: string;
  end: string;
  /** Set only by LongRunning (spec §4: only that filter sets only-live). */
  live?: true;
  minDuration?: number;
}

/** Reads a filter value from the URL; anything unknown is the default. */
export function parseTimeFilter(value: string | null): TimeFilter {
  return TIME_FILTERS.find((filter) => filter === value) ?? '-1';
}

/**
 * The window of a time filter at time `now` (spec §3, §9): the past 24 hours; the past week from
 * the start of the day six days back to the end of today; the past month likewise over 30 days;
 * All and LongRunning from 2001-01-01; the default from 2020-01-01. Days are local days.
 */
export function timeWindow(filter: TimeFilter, now: Date): TimeWindow {
  const at = dayjs(now);
  const endOfToday = at.endOf('day').toISOString();
  switch (filter) {
    case '-1':
      return { start: SPEC_START, end: at.toISOString() };
    case 'Past24Hours':
      return { start: at.subtract(24, 'hour').toISOString(), end: at.toISOString() };
    case 'PastWeek':
      return { start: at.startOf('day').subtract(6, 'day').toISOString(), end: endOfToday };
    case 'PastMonth':
      return { start: at.startOf('day').subtract(29, 'day').toISOString(), end: endOfToday };
    case 'All':
      return { start: ALL_START, end: at.toISOString() };
    case 'LongRunning':
      return { start: ALL_START, end: at.toISOString(), live: true, minDuration: LONG_RUNNING_SECONDS };
  }
}

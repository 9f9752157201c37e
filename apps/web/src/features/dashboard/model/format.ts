import dayjs from 'dayjs';
import { parseServerTime } from '../../../lib/dates';
import type { BucketUnit } from './ranges';
import { dateTimeFormat } from '../../../lib/format';

/** A count in the console language's grouping, Latin digits (lib/format's). */
export { formatCount } from '../../../lib/format';

/**
 * A bucket's start as an axis tick: the local hour ("15:00", "3 PM") or the short day ("5 Apr",
 * "4月5日"), in the console language. `withYear` for ranges that span years.
 */
export function formatBucketTick(start: string, unit: BucketUnit, language: string, withYear = false): string {
  const date = parseServerTime(start).toDate();
  const options: Intl.DateTimeFormatOptions =
    unit === 'hour'
      ? { hour: 'numeric', minute: '2-digit' }
      : withYear
        ? { day: 'numeric', month: 'short', year: '2-digit' }
        : { day: 'numeric', month: 'short' };
  return dateTimeFormat(language, options).format(date);
}

/**
 * A bucket's start in full for the tooltip, with dayjs in the chosen language (lib/dates switches its
 * locale with the console's): 'LLL' for an hour, 'LL' for a day.
 */
export function formatBucketLong(start: string, unit: BucketUnit): string {
  return parseServerTime(start).format(unit === 'hour' ? 'LLL' : 'LL');
}

/** The time of the last refresh, as 'LT' in the chosen language. */
export function formatUpdatedAt(timestamp: number): string {
  return dayjs(timestamp).format('LT');
}

/** True when buckets span more than one calendar year, so ticks need the year. */
export function spansYears(starts: readonly string[]): boolean {
  if (starts.length < 2) return false;
  const first = parseServerTime(starts[0] ?? '').year();
  const last = parseServerTime(starts[starts.length - 1] ?? '').year();
  return first !== last;
}

/** Calendar arithmetic in an IANA time zone, for chart buckets that begin at local midnights. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when the runtime knows this time zone. */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function parts(instant: Date, timeZone: string): Parts {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out as unknown as Parts;
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: Date, timeZone: string): number {
  const p = parts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant of a local wall-clock time (the earlier one when a change of clocks repeats it). */
export function zonedInstant(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  const guess = Date.UTC(year, month - 1, day, hour);
  let instant = new Date(guess - offsetMinutes(new Date(guess), timeZone) * 60_000);
  // A second pass settles instants near a change of offset.
  instant = new Date(guess - offsetMinutes(instant, timeZone) * 60_000);
  return instant;
}

/** Local midnight of the day an instant falls in. */
export function startOfDay(instant: Date, timeZone: string): Date {
  const p = parts(instant, timeZone);
  return zonedInstant(p.year, p.month, p.day, 0, timeZone);
}

/** Local midnight `days` days after the local day of `day` (which should be a local midnight). */
export function addDays(day: Date, days: number, timeZone: string): Date {
  const p = parts(day, timeZone);
  const shifted = new Date(Date.UTC(p.year, p.month - 1, p.day + days));
  return zonedInstant(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate(), 0, timeZone);
}

/** 'YYYY-MM-DD' of an instant in the zone. */
export function dayLabel(instant: Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** 'HH:00' of an instant in the zone. */
export function hourLabel(instant: Date, timeZone: string): string {
  return `${String(parts(instant, timeZone).hour).padStart(2, '0')}:00`;
}

/** Counts of instants (with weights) falling in each of consecutive buckets given by their starts and an end. */
export function countInto(starts: Date[], end: Date, points: { at: Date; n: number }[]): number[] {
  const edges = [...starts.map((d) => d.getTime()), end.getTime()];
  const counts = starts.map(() => 0);
  for (const point of points) {
    const t = point.at.getTime();
    if (t < edges[0]! || t >= edges[edges.length - 1]!) continue;
    // Binary search for the bucket.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (edges[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    counts[lo]! += point.n;
  }
  return counts;
}

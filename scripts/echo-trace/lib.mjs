// What the echo-trace readers share: the trace files of a run and the sampler's snapshots.
import fs from 'node:fs';
import path from 'node:path';

/** The lines of every trace file PREFIX.PID (packages/tunnel/src/trace.ts), split on blanks. */
export function traceLines(prefix) {
  const dir = path.dirname(prefix);
  const base = `${path.basename(prefix)}.`;
  const lines = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(base)) continue;
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      const parts = line.split(/\s+/).filter(Boolean);
      if (parts.length > 0) lines.push(parts);
    }
  }
  return lines;
}

/** The times a phase's keys were sent ('key-sent', and 'key-seen' too when `seen`). */
export function phaseTimes(prefix, phase, seen = false) {
  return traceLines(prefix)
    .filter((p) => p.length > 2 && p[2] === phase && (p[1] === 'key-sent' || (seen && p[1] === 'key-seen')))
    .map((p) => Number(p[0]));
}

/**
 * The sampler's snapshots that bound [t0, t1] (the first at or after t0, the last at or before t1),
 * and the wall time between them in seconds.
 */
export function window(schedFile, t0, t1) {
  const snaps = fs
    .readFileSync(schedFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const a = snaps.filter((s) => s[0] >= t0).reduce((x, y) => (y[0] < x[0] ? y : x));
  const b = snaps.filter((s) => s[0] <= t1).reduce((x, y) => (y[0] > x[0] ? y : x));
  return { a, b, wall: (b[0] - a[0]) / 1e9 };
}

/** The value at fraction p of the sorted values (p in 0..1), as Python's sorted(v)[int(p * (n - 1))]. */
export const quantile = (values, p) => [...values].sort((x, y) => x - y)[Math.floor(p * (values.length - 1))];
/** The value at index int(p * n) of the sorted values, as the hop tables print. */
export const at = (sorted, p) => sorted[Math.floor(p * sorted.length)];
export const median = (values) => {
  const v = [...values].sort((x, y) => x - y);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
export const mean = (values) => values.reduce((s, x) => s + x, 0) / values.length;

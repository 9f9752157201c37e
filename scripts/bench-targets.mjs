// One figure against its target, for `scripts/bench-bastion.mjs` to gather the figures of one run
// into one table (issue 19). A bench calls `reportTarget(...)` where it prints the figure; the call does
// nothing unless BENCH_TARGETS_FILE names a file, to which it appends one JSON line.
import fs from 'node:fs';
import os from 'node:os';

/**
 * @param {object} figure
 * @param {string} figure.name what was measured, as the summary prints it
 * @param {number} figure.value the figure
 * @param {number} figure.limit the target
 * @param {'at most' | 'at least'} figure.want which side of the limit meets the target
 * @param {string} figure.unit printed after value and limit ('ms', 'MiB', '' for a ratio)
 * @param {string} [figure.detail] what the figure is made of, printed beside it
 */
export function reportTarget({ name, value, limit, want, unit, detail = '' }) {
  const file = process.env.BENCH_TARGETS_FILE;
  if (!file) return;
  const met = Number.isFinite(value) && (want === 'at most' ? value <= limit : value >= limit);
  const line = { name, value, limit, want, unit, detail, met, load: os.loadavg()[0], at: new Date().toISOString() };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}

// The CPU share and run-queue wait of the busiest tasks during a phase of a run (* marks the bench's
// own process tree): share.mjs DIR/sched.jsonl DIR/t PHASE BENCH_PID
import { phaseTimes, window } from './lib.mjs';

const [sched, prefix, phase, rootArg] = process.argv.slice(2);
if (!sched || !prefix || !phase || !rootArg) {
  console.error('usage: node scripts/echo-trace/share.mjs DIR/sched.jsonl DIR/t PHASE BENCH_PID');
  process.exit(2);
}
const root = Number(rootArg);
const sent = phaseTimes(prefix, phase, true);
const { a, b, wall } = window(sched, Math.min(...sent), Math.max(...sent));
/** Each process's parent, from the last snapshot. */
const parents = new Map(Object.values(b[1]).map((v) => [v[0], v[1]]));
const under = (pid) => {
  for (let p = pid; p && p !== 1; p = parents.get(p) ?? 0) if (p === root) return true;
  return false;
};
const rows = [];
let all = 0;
for (const [tid, v] of Object.entries(b[1])) {
  const w = a[1][tid];
  if (!w) continue;
  const cpu = (v[4] - w[4]) / 1e9;
  const wait = (v[5] - w[5]) / 1e9;
  const slices = v[6] - w[6];
  all += cpu;
  if (cpu < 0.01 * wall && wait < 0.01 * wall) continue;
  rows.push({ cpu, wait, slices, comm: v[2], cmd: v[3].slice(0, 70), mine: under(v[0]) });
}
rows.sort((x, y) => y.cpu - x.cpu || y.wait - x.wait);
console.log(
  `${phase}: ${wall.toFixed(1)} s wall; all tasks on the machine used ${all.toFixed(2)} CPU-s ` +
    `(${((all / wall) * 100).toFixed(0)}% of one core; 200% = both)`,
);
const pct = (x) => ((x / wall) * 100).toFixed(1).padStart(5);
for (const r of rows.slice(0, 22))
  console.log(
    `  ${r.mine ? '*' : ' '} cpu ${pct(r.cpu)}%  runq-wait ${pct(r.wait)}%  wait/slice ${((r.wait / Math.max(r.slices, 1)) * 1e3).toFixed(2).padStart(6)} ms  ${r.comm.padEnd(15)} ${r.cmd}`,
  );

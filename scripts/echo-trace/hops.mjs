// Reads the GATEHOUSE_ECHO_TRACE files of one run (PREFIX.PID, packages/tunnel/src/trace.ts) and, for
// each key typed in the phase (bulk-gatehouse, gatehouse, ...), the time each hop took after the one
// before: hops.mjs PREFIX PHASE. Then the TCP reads of the agent's socket on both sides during the
// phase, the event loop delays, and how much of the copy the gateway read while each key and echo
// waited.
import { at, mean, median, quantile, traceLines } from './lib.mjs';

const [prefix, phase] = process.argv.slice(2);
if (!prefix || !phase) {
  console.error('usage: node scripts/echo-trace/hops.mjs DIR/t PHASE (such as bulk-gatehouse)');
  process.exit(2);
}
/** Each event: [ns, name, a, b]; a is the phase for key-sent and key-seen, a number otherwise. */
const ev = [];
const loops = new Map();
for (const p of traceLines(prefix)) {
  if (p.length < 3) continue;
  const t = Number(p[0]);
  if (p[1] === 'loop-delay') {
    const name = p[2].split('/').at(-1);
    if (!loops.has(name)) loops.set(name, []);
    loops.get(name).push([t, p.slice(3).join(' ')]);
  } else if (p[1] === 'key-sent' || p[1] === 'key-seen') ev.push([t, p[1], p[2], Number(p[3])]);
  else ev.push([t, p[1], Number(p[2]), Number(p[3])]);
}
ev.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
const sent = ev.flatMap((e, i) => (e[1] === 'key-sent' && e[2] === phase ? [i] : []));
if (sent.length <= 5) {
  console.error(`no keys of the phase ${phase} after the sign-in's five`);
  process.exit(1);
}
const order = [
  'g.in',
  's.send',
  'a.recv',
  'a.write',
  'a.sock',
  'a.send',
  'a.sent',
  's.recv',
  'g.host',
  'g.user',
  'key-seen',
];
const hops = Object.fromEntries(order.map((k) => [k, []]));
const rows = [];
const tFirst = ev[sent[5]][0];
let tLast = 0;
for (let n = 5; n < sent.length; n += 1) {
  // The first five are the sign-in's dots.
  const i = sent[n];
  const t0 = ev[i][0];
  const end = n + 1 < sent.length ? sent[n + 1] : ev.length;
  let k = 0;
  let prev = t0;
  const row = [];
  for (let j = i + 1; j < end; j += 1) {
    const e = ev[j];
    if (
      k < order.length &&
      e[1] === order[k] &&
      (e[1] === 'key-seen' || e[3] <= 512) &&
      (e[1] !== 'key-seen' || e[2] === phase)
    ) {
      hops[order[k]].push((e[0] - prev) / 1e6);
      row.push([order[k], (e[0] - prev) / 1e6]);
      prev = e[0];
      k += 1;
    }
  }
  if (k === order.length) {
    rows.push([t0, row]);
    tLast = prev;
  }
}
console.log(`${rows.length} complete keys of ${sent.length - 5}`);
const totals = rows.map(([, row]) => row.reduce((s, [, d]) => s + d, 0));
const fixed = (x, d = 2) => x.toFixed(d);
console.log(
  `total p50 ${fixed(median(totals))} p90 ${fixed(
    at(
      [...totals].sort((a, b) => a - b),
      0.9,
    ),
  )} mean ${fixed(mean(totals))}`,
);
for (const k of order) {
  const v = hops[k].slice(0, rows.length).sort((a, b) => a - b);
  if (v.length === 0) continue;
  const f = (x) => fixed(x).padStart(7);
  console.log(
    `  -> ${k.padEnd(9)} p50 ${f(v[Math.floor(v.length / 2)])}  p90 ${f(at(v, 0.9))}  max ${f(v.at(-1))}  mean ${fixed(mean(v)).padStart(6)} ms`,
  );
}
// The TCP reads processed during the phase.
for (const proc of ['s.read', 'a.read']) {
  const v = ev.filter((e) => e[1] === proc && tFirst <= e[0] && e[0] <= tLast).map((e) => [e[2], e[3]]);
  if (v.length === 0) continue;
  const sizes = v.map((x) => x[0]).sort((a, b) => a - b);
  const durations = v.map((x) => x[1]).sort((a, b) => a - b);
  const busy = durations.reduce((s, x) => s + x, 0);
  console.log(
    `${proc}: ${v.length} reads, size p50 ${sizes[Math.floor(v.length / 2)]} p90 ${at(sizes, 0.9)} max ${sizes.at(-1)}; ` +
      `turn µs p50 ${durations[Math.floor(v.length / 2)]} p90 ${at(durations, 0.9)} max ${durations.at(-1)}; ` +
      `total busy ${(busy / 1e3).toFixed(0)} ms of ${((tLast - tFirst) / 1e6).toFixed(0)} ms`,
  );
}
for (const [name, list] of loops)
  for (const [t, text] of list) if (tFirst <= t && t <= tLast + 1e9) console.log(`  loop ${name}: ${text}`);

// The copy's bytes the server read from the agent while a key or its echo waited.
const reads = ev.filter((e) => e[1] === 's.read').map((e) => [e[0], e[2], e[3]]);
const times = reads.map((r) => r[0]);
/** How many times are at or before t (Python's bisect_right). */
const upTo = (t) => {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
const between = (from, to) => {
  const [i0, i1] = [upTo(from), upTo(to)];
  const part = reads.slice(i0, i1);
  return {
    count: i1 - i0,
    kib: part.reduce((s, r) => s + r[1], 0) / 1024,
    ms: part.reduce((s, r) => s + r[2], 0) / 1e3,
  };
};
const echo = rows.map(([t0, row]) => {
  let t = t0;
  const marks = {};
  for (const [k, d] of row) {
    t += Math.trunc(d * 1e6);
    marks[k] = t;
  }
  return between(marks['a.sent'], marks['s.recv']);
});
const key = rows.map(([t0, row]) => between(t0, t0 + Math.trunc(row[0][1] * 1e6)));
const q = (list, field, p, digits) => {
  const x = quantile(
    list.map((r) => r[field]),
    p,
  );
  return digits === undefined ? x : x.toFixed(digits);
};
console.log(
  `agent sent → server got the echo: server reads in between p50 ${q(echo, 'count', 0.5)} p90 ${q(echo, 'count', 0.9)}; ` +
    `KiB read p50 ${q(echo, 'kib', 0.5, 0)} p90 ${q(echo, 'kib', 0.9, 0)}; their turns (wall ms) p50 ${q(echo, 'ms', 0.5, 1)} p90 ${q(echo, 'ms', 0.9, 1)}`,
);
console.log(
  `key sent → server read it: server reads of the agent socket in between p50 ${q(key, 'count', 0.5)} p90 ${q(key, 'count', 0.9)}; ` +
    `KiB p50 ${q(key, 'kib', 0.5, 0)} p90 ${q(key, 'kib', 0.9, 0)}; their turns (wall ms) p50 ${q(key, 'ms', 0.5, 1)} p90 ${q(key, 'ms', 0.9, 1)}`,
);

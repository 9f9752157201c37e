// One line per run directory of run.sh: the load at its start, the echo and the copy, the CPU share
// and run-queue wait of the gateway's main thread and of the agent during the echo under the copy,
// and the median of each hop (hops.mjs): summary.mjs DIR...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { phaseTimes, window } from './lib.mjs';

const HOPS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hops.mjs');
for (const dir of process.argv.slice(2)) {
  const out = fs.readFileSync(`${dir}/out.txt`, 'utf8');
  const start = /start (\S+) load (\S+)/.exec(out);
  const echo = /gatehouse\s+p50 (\S+) ms p99 (\S+) ms .*meanwhile (\S+) MiB\/s/.exec(out.split('in bulk').at(-1));
  const bench = Number(fs.readFileSync(`${dir}/bench.pid`, 'utf8'));
  const sent = phaseTimes(`${dir}/t`, 'bulk-gatehouse');
  const { a, b, wall } = window(`${dir}/sched.jsonl`, Math.min(...sent), Math.max(...sent));
  /** The CPU share and run-queue wait (% of the window) of the first task that matches. */
  const task = (match) => {
    for (const [tid, v] of Object.entries(b[1])) {
      const w = a[1][tid];
      if (w && match(tid, v)) return [((v[4] - w[4]) / 1e9 / wall) * 100, ((v[5] - w[5]) / 1e9 / wall) * 100];
    }
    return [0, 0];
  };
  const main = task((tid) => Number(tid) === bench);
  const agent = task((tid, v) => v[3].includes('gatehouse-agent.mjs') && Number(tid) === v[0]);
  const hops = execFileSync(process.execPath, [HOPS, `${dir}/t`, 'bulk-gatehouse'], { encoding: 'utf8' });
  const med = Object.fromEntries([...hops.matchAll(/-> (\S+)\s+p50\s+(\S+)/g)].map((m) => [m[1], Number(m[2])]));
  const ahead = /key sent → server read it: server reads of the agent socket in between p50 (\d+) p90 (\d+)/.exec(hops);
  const n = (x, w, d = 0) => x.toFixed(d).padStart(w);
  const hop = (k, w) => n(med[k] ?? 0, w, 1);
  console.log(
    `${path.basename(dir).padEnd(5)} ${start?.[1]} load ${(start?.[2] ?? '').padEnd(5)} ` +
      `echo p50 ${(echo?.[1] ?? '').padStart(6)} p99 ${(echo?.[2] ?? '').padStart(7)} copy ${(echo?.[3] ?? '').padStart(5)} MiB/s | ` +
      `gateway thread cpu ${n(main[0], 4)}% runq ${n(main[1], 4)}% | agent cpu ${n(agent[0], 4)}% runq ${n(agent[1], 4)}% | ` +
      `hop p50 g.in ${hop('g.in', 5)} a.recv ${hop('a.recv', 4)} a.sock ${hop('a.sock', 4)} s.recv ${hop('s.recv', 4)} ` +
      `key-seen ${hop('key-seen', 4)} | bulk reads before the key p50 ${ahead?.[1]} p90 ${ahead?.[2]}`,
  );
}

// Many sessions typing at once (issue 19 item 3): BENCH_TYPISTS live recordings (default 100) on the
// built server in this process, each getting a keystroke's echo (a few bytes of output) every
// BENCH_TYPIST_GAP_MS (default 50) for BENCH_TYPIST_SECONDS (default 10), as an interactive
// session's recorder gets them. It prints the gateway thread's busy share, its event loop's delay
// (what every session's next keystroke waits behind) and how many database statements committed
// the recordings' progress. The embedded database keeps its files in a folder, as a server does
// (BENCH_DATABASE_URL: PostgreSQL instead).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../apps/server/dist/db/client.js';
import { ADMIN, startBenchServer } from './bench-server.mjs';

const pct = (v, p) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))] ?? NaN;
const TYPISTS = Number(process.env.BENCH_TYPISTS ?? 100);
const GAP_MS = Number(process.env.BENCH_TYPIST_GAP_MS ?? 50);
const SECONDS = Number(process.env.BENCH_TYPIST_SECONDS ?? 10);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-benchtyp-'));
const url = process.env.BENCH_DATABASE_URL;
const database = await openDatabase(url ? { url } : { dataDir: path.join(tmp, 'db') });
const { server, call } = await startBenchServer(path.join(tmp, 'data'), { database });
try {
  const token = (await call('POST', '/api/login', undefined, ADMIN)).response.user.authentication_token;
  const { key } = await call('POST', '/api/apikey', token, { description: 'typists' });
  const { id: agentId } = await call('POST', '/api/agent/register', undefined, {
    key,
    hostname: 'typists-01',
    os: 1,
    version: 'bench',
  });
  const recordings = server.services.recordings;
  // Counts the progress statements: the repository's one write of a recording's progress.
  const repository = recordings.repository;
  let statements = 0;
  const took = [];
  for (const name of ['progress', 'progressMany']) {
    const original = repository[name]?.bind(repository);
    if (original)
      repository[name] = async (...args) => {
        statements += 1;
        const started = performance.now();
        try {
          return await original(...args);
        } finally {
          took.push(performance.now() - started);
        }
      };
  }
  const live = [];
  for (let i = 0; i < TYPISTS; i += 1)
    live.push(
      await recordings.start({
        type: 'ssh',
        agentId,
        hostname: 'typists-01',
        userId: null,
        userEmail: `typist-${i}@example.test`,
        definitionId: null,
        definitionName: 'typists',
        width: 80,
        height: 24,
      }),
    );
  await new Promise((resolve) => setTimeout(resolve, 500));
  statements = 0;
  took.length = 0;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  // Each typist on its own phase, as people type.
  const timers = live.map((session, i) =>
    setTimeout(
      () => {
        timers[i] = setInterval(() => session.recorder.output(Buffer.from('k\b k')), GAP_MS);
      },
      (i * GAP_MS) / TYPISTS,
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  for (const timer of timers) clearInterval(timer);
  delay.disable();
  const busy = performance.eventLoopUtilization(loop);
  const used = process.cpuUsage(cpu);
  console.log(
    `${TYPISTS} sessions typing, a key every ${GAP_MS} ms each, ${SECONDS} s, ${url ? 'PostgreSQL' : 'embedded database in a folder'}: gateway thread busy ${(busy.utilization * 100).toFixed(1)} %, process CPU ${((used.user + used.system) / 1e4 / SECONDS).toFixed(1)} % of a core; event loop delay p50 ${(delay.percentile(50) / 1e6).toFixed(2)} p99 ${(delay.percentile(99) / 1e6).toFixed(2)} max ${(delay.max / 1e6).toFixed(2)} ms; progress statements ${statements} (${(statements / SECONDS).toFixed(0)} a second, each p50 ${pct(took, 50).toFixed(1)} max ${pct(took, 100).toFixed(1)} ms); load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const session of live) await recordings.finish(session, 'closed');
} finally {
  await server.close();
  await database.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

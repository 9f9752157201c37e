// One instance's scale (issue 19 item 3), against the built server as its own process, a real agent
// process and Debian's sshd on loopback, with the real OpenSSH client (`ssh -tt`, a PTY, no
// ControlMaster: every session is a connection, a handshake and a channel of its own).
// Parts (BENCH_PARTS or `--only idle,sessions,rate`; default all three):
// - idle: the server's memory before the first session, by part, each in a fresh process: bare
//   Node, the server's modules loaded, the server started on embedded PGlite (its WASM heap read
//   from PGlite), the same on PostgreSQL (TEST_DATABASE_URL, in a database of its own), and a heap
//   snapshot of the PGlite server summarised by what holds the bytes.
// - sessions: interactive sessions held open (a login shell on a PTY, each answering a typed
//   `echo`), the server's RSS at each step of BENCH_SCALE_STEPS (default 100,500,1000).
// - rate: BENCH_RATE new sessions a second (default 50) for BENCH_RATE_SECONDS (default 20), each
//   `ssh -tt HOST 'echo ready'`; setup = spawn to `ready` printed; straight to sshd, then through
//   the gateway, in one run.
// Every figure is printed with the load average beside it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { freePort, rssOf, sleep, startSshStack } from './bench-ssh-setup.mjs';
import { reportTarget } from './bench-targets.mjs';
import { machineCpuMs } from './bench-threads.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const MiB = 1048576;
const mib = (b) => `${(b / MiB).toFixed(1)} MiB`;
const load = () =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
const pct = (v, p) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];

// ---- Probe mode: one stage of the idle breakdown in this (fresh) process; prints one JSON line.
const probeAt = process.argv.indexOf('--probe');
if (probeAt >= 0) {
  const stage = process.argv[probeAt + 1];
  const snapshotAt = process.argv.indexOf('--snapshot');
  const snapshotFile = snapshotAt >= 0 ? process.argv[snapshotAt + 1] : undefined;
  const status = () => {
    const s = fs.readFileSync('/proc/self/status', 'utf8');
    const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), rssAnon: kb('RssAnon'), rssFile: kb('RssFile') };
  };
  let wasmHeap = 0;
  let server;
  if (stage === 'imports') {
    await import(path.join(root, 'apps/server/dist/server.js'));
  } else if (stage === 'server-pglite' || stage === 'server-pg') {
    // PGlite's WASM memory (its Emscripten heap), read from the instance the server creates.
    const { PGlite } = await import('@electric-sql/pglite');
    const create = PGlite.create.bind(PGlite);
    let pglite;
    PGlite.create = async (...args) => (pglite = await create(...args));
    const { loadConfig } = await import(path.join(root, 'apps/server/dist/config.js'));
    const { startServer } = await import(path.join(root, 'apps/server/dist/server.js'));
    const env = {
      PORT: String(await freePort()),
      GATEHOUSE_SSH_PORT: String(await freePort()),
      GATEHOUSE_DATA_DIR: process.env.PROBE_DATA_DIR,
      GATEHOUSE_ADMIN_EMAIL: 'bench@example.test',
      GATEHOUSE_ADMIN_PASSWORD: 'bench-password-1',
      LOG_LEVEL: 'silent',
      ...(stage === 'server-pg' ? { DATABASE_URL: process.env.PROBE_DATABASE_URL } : {}),
    };
    server = await startServer(loadConfig(env, path.join(root, 'apps/web/dist')));
    // Settled: the first minutes' timers (sweeps, retention, the registry) have run once.
    await sleep(Number(process.env.PROBE_SETTLE_MS ?? 8000));
    wasmHeap = pglite?.Module?.HEAPU8?.byteLength ?? 0;
  }
  for (let i = 0; i < 3; i += 1) global.gc();
  await sleep(200);
  const u = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const out = {
    stage,
    ...status(),
    heapUsed: u.heapUsed,
    heapTotal: u.heapTotal,
    external: u.external,
    arrayBuffers: u.arrayBuffers,
    codeAndMetadata: heap.total_physical_size,
    wasmHeap,
  };
  if (snapshotFile && server) v8.writeHeapSnapshot(snapshotFile);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

/** Sums a heap snapshot's self sizes by node type and by constructor (DevTools' Summary view). */
function summariseSnapshot(file) {
  const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { node_fields: fields, node_types: types } = snap.snapshot.meta;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const typeNames = types[0];
  const byType = new Map();
  const byName = new Map();
  const nodes = snap.nodes;
  for (let i = 0; i < nodes.length; i += width) {
    const type = typeNames[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    byType.set(type, (byType.get(type) ?? 0) + size);
    const name = type === 'object' || type === 'closure' ? `${type} ${snap.strings[nodes[i + nameAt]]}` : type;
    byName.set(name, (byName.get(name) ?? 0) + size);
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { byType: top(byType, 10), byName: top(byName, 15) };
}

function probe(stage, env = {}, snapshot) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), '--probe', stage, ...(snapshot ? ['--snapshot', snapshot] : [])],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, ...env },
      },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) reject(new Error(`probe ${stage} exited ${code}: ${out}`));
      else resolve(JSON.parse(line));
    });
  });
}

const only = process.argv.indexOf('--only');
const PARTS = new Set(
  (only >= 0 ? process.argv[only + 1] : (process.env.BENCH_PARTS ?? 'idle,sessions,rate')).split(','),
);
const STEPS = (process.env.BENCH_SCALE_STEPS ?? '100,500,1000').split(',').map(Number);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 20);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-benchscale-'));

try {
  if (PARTS.has('idle')) {
    const rows = [];
    const show = (label, r, extra = '') =>
      console.log(
        `  ${label.padEnd(34)} rss ${mib(r.rss).padStart(10)} (anon ${mib(r.rssAnon)}, file ${mib(r.rssFile)})  heapUsed ${mib(r.heapUsed)}  external ${mib(r.external)}  arrayBuffers ${mib(r.arrayBuffers)}${r.wasmHeap ? `  PGlite WASM heap ${mib(r.wasmHeap)}` : ''}${extra}`,
      );
    console.log(`idle memory, each stage a fresh process after gc (${load()})`);
    rows.push(['bare Node', await probe('node')]);
    rows.push(['server modules loaded, not started', await probe('imports')]);
    const snapshot = path.join(tmp, 'idle.heapsnapshot');
    fs.mkdirSync(path.join(tmp, 'pglite'));
    rows.push([
      'server started, embedded PGlite',
      await probe('server-pglite', { PROBE_DATA_DIR: path.join(tmp, 'pglite') }, snapshot),
    ]);
    // The same data folder once more: a restart, not the first start (which runs initdb).
    rows.push([
      '  again (second start, same folder)',
      await probe('server-pglite', { PROBE_DATA_DIR: path.join(tmp, 'pglite') }),
    ]);
    if (process.env.TEST_DATABASE_URL) {
      const { default: pg } = await import('pg');
      const name = `bench_scale_${process.pid}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        const url = new URL(process.env.TEST_DATABASE_URL);
        url.pathname = `/${name}`;
        fs.mkdirSync(path.join(tmp, 'pg'));
        rows.push([
          'server started, PostgreSQL',
          await probe('server-pg', { PROBE_DATA_DIR: path.join(tmp, 'pg'), PROBE_DATABASE_URL: url.href }),
        ]);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    } else console.log('  (TEST_DATABASE_URL not set: no PostgreSQL figure)');
    for (const [label, r] of rows) show(label, r);
    const summary = summariseSnapshot(snapshot);
    console.log('  heap snapshot of the PGlite server, self size by kind:');
    console.log(`    ${summary.byType.map(([n, s]) => `${n} ${mib(s)}`).join(', ')}`);
    console.log('  largest by constructor:');
    console.log(`    ${summary.byName.map(([n, s]) => `${n} ${mib(s)}`).join(', ')}`);
  }

  if (PARTS.has('sessions') || PARTS.has('rate')) {
    const stack = await startSshStack(tmp);
    // The gateway reads its login limits again within 10 s.
    await sleep(11_000);
    try {
      /**
       * An interactive session: `ssh -tt` with stdin a pipe (a PTY on the far side, the login
       * shell), established once a typed `echo` comes back. Answers the child and a promise of
       * the setup time in ms (undefined when it did not answer within `timeoutMs`).
       */
      const open = (target, mark, command, timeoutMs = 60_000) => {
        const start = performance.now();
        const child = spawn('ssh', [...stack.sshArgs, '-tt', ...target, ...(command ? [command] : [])], {
          stdio: [command ? 'ignore' : 'pipe', 'pipe', 'ignore'],
        });
        const ready = new Promise((resolve) => {
          let seen = '';
          const timer = setTimeout(() => resolve(undefined), timeoutMs);
          const done = (v) => {
            clearTimeout(timer);
            child.stdout.removeAllListeners('data');
            child.stdout.resume();
            resolve(v);
          };
          child.stdout.on('data', (c) => {
            seen = (seen + c.toString('latin1')).slice(-200);
            // The typed line echoes once as typed: the mark printed by the shell is the second sight.
            if (seen.includes(`${mark}-ok`)) done(performance.now() - start);
          });
          child.on('exit', () => done(undefined));
        });
        if (!command) child.stdin.write(`echo ${mark}-o''k\n`);
        return { child, ready };
      };

      if (PARTS.has('sessions')) {
        const serverPid = stack.server.pid;
        await sleep(2000);
        const base = rssOf(serverPid);
        const agentBase = rssOf(stack.agent.pid);
        console.log(
          `interactive sessions held open (ssh -tt, login shell on a PTY), server RSS before the first: ${mib(base)}, agent ${mib(agentBase)} (${load()})`,
        );
        const sessions = [];
        let up = 0;
        for (const n of STEPS) {
          const opening = [];
          // 20 a second: the 2-core machine also runs the clients, sshd and the shells.
          while (sessions.length < n) {
            const s = open(stack.viaGateway, `s${sessions.length}`);
            sessions.push(s);
            opening.push(s.ready);
            if (sessions.length % 20 === 0) await sleep(1000);
          }
          const times = (await Promise.all(opening)).filter((t) => t !== undefined);
          up += times.length;
          await sleep(5000);
          const rss = rssOf(serverPid);
          const agentRss = rssOf(stack.agent.pid);
          console.log(
            `  N=${String(n).padEnd(5)} answering ${up}: server RSS ${mib(rss)} (+${mib(rss - base)}, ${((rss - base) / up / 1024).toFixed(0)} KiB a session; total/N ${(rss / up / MiB).toFixed(2)} MiB)  agent RSS ${mib(agentRss)} (+${mib(agentRss - agentBase)})  setup p50 ${pct(times, 50)?.toFixed(0)} ms p95 ${pct(times, 95)?.toFixed(0)} ms  (${load()})`,
          );
          if (n === STEPS.at(-1))
            reportTarget({
              name: `${n.toLocaleString('en')} interactive sessions: server RSS`,
              value: up < n ? Number.NaN : rss / MiB,
              limit: 2048,
              want: 'at most',
              unit: 'MiB',
              detail: `${up} of ${n} answering; setup p95 ${pct(times, 95)?.toFixed(0)} ms`,
            });
          if (up < n) console.log(`  only ${up} of ${n} sessions answered; stopping the steps here`);
          if (up < n) break;
        }
        for (const s of sessions) s.child.kill('SIGKILL');
        await sleep(5000);
        console.log(`  after closing them all: server RSS ${mib(rssOf(serverPid))} (${load()})`);
      }

      if (PARTS.has('rate')) {
        const sustained = async (label, target) => {
          const pending = [];
          const cpuBefore = machineCpuMs();
          const start = performance.now();
          const count = RATE * RATE_SECONDS;
          for (let i = 0; i < count; i += 1) {
            // On schedule, whatever the previous sessions do (an open loop, as arrivals are).
            const due = start + (i * 1000) / RATE;
            const wait = due - performance.now();
            if (wait > 0) await sleep(wait);
            pending.push(open(target, `r${i}`, `echo r${i}-o''k`, 30_000).ready);
          }
          const times = await Promise.all(pending);
          const ok = times.filter((t) => t !== undefined);
          // The whole machine's CPU per session (client, sshd, gateway, agent, kernel) and the rate
          // the machine's cores could sustain at that cost, were they doing nothing else.
          const perSession = (machineCpuMs() - cpuBefore) / Math.max(1, ok.length);
          console.log(
            `  ${label.padEnd(10)} ${ok.length}/${count} ready: setup p50 ${pct(ok, 50)?.toFixed(0)} ms p95 ${pct(ok, 95)?.toFixed(0)} ms p99 ${pct(ok, 99)?.toFixed(0)} ms max ${Math.max(...ok).toFixed(0)} ms  (${load()})`,
          );
          console.log(
            `  ${''.padEnd(10)} machine CPU ${perSession.toFixed(1)} ms per session: ${os.cpus().length} cores sustain at most ${((os.cpus().length * 1000) / perSession).toFixed(0)} a second`,
          );
          return ok;
        };
        console.log(
          `sustained new sessions: ${RATE} a second for ${RATE_SECONDS} s, ssh -tt HOST 'echo …' (${load()})`,
        );
        const direct = await sustained('direct', stack.direct);
        await sleep(5000);
        const gateway = await sustained('gatehouse', stack.viaGateway);
        console.log(
          `  gatehouse/direct p95 ${(pct(gateway, 95) / pct(direct, 95)).toFixed(2)} (target: gatehouse p95 under 1000 ms)`,
        );
        const count = RATE * RATE_SECONDS;
        reportTarget({
          name: `${RATE} new sessions a second: setup p95`,
          value: gateway.length < count ? Number.NaN : pct(gateway, 95),
          limit: 1000,
          want: 'at most',
          unit: 'ms',
          detail: `${gateway.length} of ${count} ready in 30 s (direct ${direct.length}, p95 ${pct(direct, 95)?.toFixed(0)} ms)`,
        });
      }
    } finally {
      await stack.stop();
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
  setTimeout(() => process.exit(0), 300).unref();
}

// `npm run faults`: the fault suite against the built server, a real agent, Debian's sshd and the real
// OpenSSH client, all on loopback, on PGlite and on PostgreSQL (a cluster and a redis-server the suite
// starts itself; the machine's own are never touched). Each probe prints what happened, what was lost
// and the server's resident memory at its start and peak; the end is a Markdown table for
// docs/RELIABILITY.md. Exits 1 when any probe fails its verdict.
//
//   node faults/run.mjs [--smoke] [--db=pglite,postgres] [--only=probe,probe]
//
// --smoke: small versions (2,000 connections, a 64 MiB flood, 1 s floods, a 5 s database outage; no
// 10 GiB recording), PGlite for the gateway probes and PostgreSQL for the database ones; what
// scripts/test-all.sh runs. FAULTS_KEEP=1 keeps the temp folders (server logs, PostgreSQL log).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AGENT_CLI,
  SERVER_MAIN,
  cleanup,
  postgresBin,
  startPostgres,
  startRedis,
  startSshd,
  tempDir,
  userKey,
} from './lib/processes.mjs';
import { markdown, newResult, printResult, verdictOf } from './lib/report.mjs';
import { mib } from './lib/server.mjs';
import { createStack, ensureHealthy } from './lib/stack.mjs';
import { bigRecording } from './probes/big-recording.mjs';
import { silentConnections } from './probes/connections.mjs';
import { pgRestart, pgTerminate, redisRestart } from './probes/database.mjs';
import { agentFlood, slowWatcher } from './probes/floods.mjs';
import { agentKill, serverKill } from './probes/sessions.mjs';

const BOTH = ['pglite', 'postgres'];
/** Every probe, the databases it runs on, and those it runs on in the smoke. */
const PROBES = [
  { name: 'agent-kill', run: agentKill, modes: BOTH, smoke: ['pglite'] },
  { name: 'pg-terminate', run: pgTerminate, modes: ['postgres'], smoke: ['postgres'] },
  { name: 'pg-restart', run: pgRestart, modes: ['postgres'], smoke: ['postgres'] },
  { name: 'redis-restart', run: redisRestart, modes: ['postgres'], smoke: ['postgres'] },
  { name: 'agent-hello-flood', run: (s, r, o) => agentFlood(s, r, o, 'hello'), modes: BOTH, smoke: ['pglite'] },
  { name: 'agent-frame-flood', run: (s, r, o) => agentFlood(s, r, o, 'frames'), modes: BOTH, smoke: ['pglite'] },
  { name: 'slow-watcher', run: slowWatcher, modes: BOTH, smoke: ['pglite'] },
  { name: 'silent-connections', run: silentConnections, modes: BOTH, smoke: ['pglite'] },
  { name: 'server-kill', run: serverKill, modes: BOTH, smoke: ['pglite'] },
  { name: 'big-recording', run: bigRecording, modes: BOTH, smoke: [], limitMinutes: 120 },
];
const MEMORY_BOUND = 300 * 1048576;

/** A probe that cannot run here (a binary is missing): reported, not failed. */
class Skip extends Error {}

const argv = process.argv.slice(2);
const option = (name) =>
  argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split('=')[1]
    ?.split(',');
const options = { smoke: argv.includes('--smoke') };
const databases = option('db') ?? BOTH;
const only = option('only');
const unknown = only?.filter((n) => !PROBES.some((p) => p.name === n)) ?? [];
if (unknown.length) {
  console.error(`Unknown probe ${unknown.join(', ')}; the probes: ${PROBES.map((p) => p.name).join(', ')}`);
  process.exit(2);
}

const missing = [SERVER_MAIN, AGENT_CLI, '/usr/sbin/sshd'].filter((f) => !fs.existsSync(f));
if (missing.length) {
  console.error(`The fault suite needs ${missing.join(', ')} (npm run build; Debian's openssh-server).`);
  process.exit(2);
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    cleanup();
    process.exit(130);
  });
// A client error the suite did not expect is reported, not fatal: the run and its cleanup go on.
process.on('unhandledRejection', (error) => console.error(`(suite) unhandled: ${error?.message ?? error}`));

const git = (...args) => {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '?';
  }
};
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `Gatehouse fault suite${options.smoke ? ' (smoke)' : ''}: commit ${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain').length ? ' + local changes' : ''}, ` +
    `${new Date().toISOString()}, ${os.cpus().length} cores, load ${load()}, open-file limit ${execFileSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()}`,
);

const results = [];
const tmp = tempDir('gh-faults-');
let pgCluster;
let redis;
try {
  const sshd = await startSshd(path.join(tmp, 'sshd'));
  fs.mkdirSync(path.join(tmp, 'keys'));
  const key = userKey(path.join(tmp, 'keys'), 'faults');
  for (const mode of databases) {
    const probes = PROBES.filter((p) => (options.smoke ? p.smoke : p.modes).includes(mode)).filter(
      (p) => !only || only.includes(p.name),
    );
    if (probes.length === 0) continue;
    console.log(
      `\n== ${mode === 'pglite' ? 'PGlite (embedded, in the data folder)' : 'PostgreSQL (a cluster of its own) + Redis'}`,
    );
    let stack;
    try {
      if (mode === 'postgres') {
        const bin = postgresBin();
        if (!bin) throw new Skip('PostgreSQL server binaries not found under /usr/lib/postgresql');
        if (!fs.existsSync('/usr/bin/redis-server')) throw new Skip('redis-server not found');
        pgCluster ??= await startPostgres(bin);
        redis ??= await startRedis();
        console.log(
          `   PostgreSQL ${path.basename(path.dirname(bin))} on 127.0.0.1:${pgCluster.port}, Redis on 127.0.0.1:${redis.port}`,
        );
      }
      stack = await createStack({ mode, tmp, sshd, userKey: key, cluster: pgCluster, redis });
      console.log(
        `   server ${stack.server.url} (ssh ${stack.server.sshPort}), RSS at start ${mib(stack.server.current)} MiB`,
      );
    } catch (error) {
      for (const probe of probes) {
        const r = newResult(probe.name, mode);
        if (error instanceof Skip) r.skipped = `not run: ${error.message}`;
        else r.failures.push(`setup failed: ${error.message.split('\n')[0]}`);
        results.push(r);
        printResult(r);
      }
      continue;
    }
    for (const probe of probes) results.push(await runProbe(stack, probe));
    console.log(`   ${mode}: server peak RSS over the run ${mib(stack.server.runPeak)} MiB; load ${load()}`);
    await stack.server.kill();
    stack.server.stop();
    stack.agent.child.kill('SIGKILL');
  }
} catch (error) {
  const r = newResult('suite', 'all');
  r.failures.push(`the suite could not go on: ${error.stack ?? error}`);
  results.push(r);
  printResult(r);
} finally {
  cleanup();
}

const failed = results.filter((r) => verdictOf(r) === 'FAIL');
const counts = ['PASS', 'FAIL', 'SKIP'].map(
  (v) => `${results.filter((r) => verdictOf(r) === v).length} ${v.toLowerCase()}`,
);
console.log(`\n== Results (${counts.join(', ')}); paste into docs/RELIABILITY.md:\n`);
console.log(markdown(results));
process.exit(failed.length ? 1 : 0);

/** One probe: health first, a memory window, the probe, then the server's exits and growth. */
async function runProbe(stack, probe) {
  const r = newResult(probe.name, stack.mode);
  try {
    const repaired = await ensureHealthy(stack);
    r.notes.push(...repaired);
  } catch (error) {
    r.failures.push(`before the probe: ${error.message}`);
    printResult(r);
    return r;
  }
  stack.server.mark();
  const since = Date.now();
  const limitMs = (options.smoke ? 4 : (probe.limitMinutes ?? 30)) * 60_000;
  let timer;
  try {
    await Promise.race([
      probe.run(stack, r, options),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not finish within ${limitMs / 60_000} min`)), limitMs);
      }),
    ]);
  } catch (error) {
    r.failures.push(`probe error: ${error.message.split('\n')[0]}`);
  } finally {
    clearTimeout(timer);
  }
  if (!r.skipped) {
    r.rss = stack.server.window();
    if (r.rss.peak - r.rss.start > MEMORY_BOUND)
      r.failures.push(`server RSS grew by ${mib(r.rss.peak - r.rss.start)} MiB (bound: 300 MiB)`);
    for (const exit of stack.server.exitsSince(since))
      r.failures.push(
        `the server exited (${exit.code ?? exit.signal}): ${exit.log.split('\n').slice(-3).join(' ⏎ ').slice(0, 400)}`,
      );
  }
  printResult(r);
  return r;
}

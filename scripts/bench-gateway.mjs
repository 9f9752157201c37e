// The SSH gateway's benchmarks (issue 5), against the built server, a real agent process and
// Debian's sshd on loopback: bulk output, keystroke echo, live view latency, idle-session memory.
// Sizes come from the environment so the full targets can be run when there is time:
// BENCH_BULK_MIB (default 256; the target is stated for 1024), BENCH_LIVE_SESSIONS (default 50),
// BENCH_IDLE_SESSIONS (default 100; the target is stated for 1000), BENCH_BULK_ROUNDS (default 3),
// BENCH_PARTS (default bulk,setup,echo,echo-bulk,live,idle; `--only echo` on the command line says the same;
// BENCH_SETUP_RUNS sets the setup part's connections per path, default 30),
// BENCH_ECHO_KEYS (default 200), BENCH_ECHO_GAP_MS (default 20) and BENCH_ECHO_BULK_PATHS (the
// echo-bulk part's paths, default direct,jump,gatehouse). Without ssh2's native crypto
// add-on: `node --import ./scripts/ssh2-without-native.mjs scripts/bench-gateway.mjs`.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { ADMIN, startBenchServer } from './bench-server.mjs';
import {
  freePort,
  grantSshTarget,
  makeSshKeys,
  raiseSshLimits,
  sleep,
  sshClientArgs,
  startAgent,
  startSshd,
} from './bench-ssh-setup.mjs';
import { Recorder } from '../apps/server/dist/recordings/recorder.js';
import { typeKeys, typeWhileCopying } from './bench-typist.mjs';
import { reportTarget } from './bench-targets.mjs';
import { machineCpuMs, memInfoMib, threadCpuMs } from './bench-threads.mjs';
import { createRequire } from 'node:module';

// Whether ssh2 loaded its native crypto add-on (read from ssh2 itself, so this bench also runs on older builds).
const { bindingAvailable: nativeCrypto } = createRequire(import.meta.url)('ssh2/lib/protocol/crypto.js');
const BULK_MIB = Number(process.env.BENCH_BULK_MIB ?? 256);
const LIVE_SESSIONS = Number(process.env.BENCH_LIVE_SESSIONS ?? 50);
const IDLE_SESSIONS = Number(process.env.BENCH_IDLE_SESSIONS ?? 100);
const BULK_ROUNDS = Number(process.env.BENCH_BULK_ROUNDS ?? 3);
const LIVE_SECONDS = 45;
const ECHO_KEYS = Number(process.env.BENCH_ECHO_KEYS ?? 200);
const ECHO_GAP_MS = Number(process.env.BENCH_ECHO_GAP_MS ?? 20);
// BENCH_ECHO_REMOTE=shell types into the login shell (readline echoes) instead of `cat` on a PTY.
const ECHO_SHELL = process.env.BENCH_ECHO_REMOTE === 'shell';
// BENCH_PARTS=bulk,live or `--only bulk,live` runs only those parts (default: all six; echo-bulk is
// the echo again while a second session of the same path copies in bulk).
const only = process.argv.indexOf('--only');
const PARTS = new Set(
  (only >= 0 ? process.argv[only + 1] : (process.env.BENCH_PARTS ?? 'bulk,setup,echo,echo-bulk,live,idle')).split(','),
);
const pct = (v, p) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-benchgw-'));

// sshd on loopback, logins for the current user with keys from our authorized_keys file. The same
// sshd twice: the target, and a plain OpenSSH jump host for `ssh -J` (the echo part's peer; OpenSSH
// refuses a jump host that is its own destination).
makeSshKeys(tmp);
const sshdPort = await freePort();
const jumpPort = await freePort();
const sshd = startSshd(tmp, sshdPort, { max: 2000 });
const jumpSshd = startSshd(tmp, jumpPort, { name: 'jump_sshd', max: 2000 });
await sleep(500);

const dataDir = path.join(tmp, 'data');
const { server, database, call } = await startBenchServer(dataDir);
const token = (await call('POST', '/api/login', undefined, ADMIN)).response.user.authentication_token;
const { key } = await call('POST', '/api/apikey', token, { description: 'bench' });
// BENCH_AGENT_PROFILE=DIR: the agent writes a CPU profile there when the bench ends (run the bench
// itself with `node --cpu-prof` for the server's; NODE_OPTIONS may not carry --cpu-prof).
const agentProfile = process.env.BENCH_AGENT_PROFILE;
const { agent, agentId } = await startAgent({
  url: server.url,
  key,
  tmp,
  hostname: 'bench-host',
  call,
  token,
  nodeArgs: agentProfile ? ['--cpu-prof', '--cpu-prof-dir', agentProfile] : [],
});
const { login, me } = await grantSshTarget({ call, token, agentId, sshdPort, tmp });
// The bench opens tens of sessions at once from one address, as automation does.
await raiseSshLimits(call, token, 1000);
if (PARTS.has('live') || PARTS.has('idle')) await sleep(11_000); // the gateway reads them again within 10 s

const viaGateway = ['-p', String(server.sshPort), `${ADMIN.email}@bench-host@127.0.0.1`];
const direct = ['-p', String(sshdPort), `${login}@127.0.0.1`];
const sshArgs = sshClientArgs(tmp);
// A config file as well: `ssh -J` hands its jump host only what a config file says, not `-i`.
const config = path.join(tmp, 'ssh_config');
fs.writeFileSync(
  config,
  [
    'Host *',
    `  IdentityFile ${path.join(tmp, 'user_key')}`,
    '  IdentitiesOnly yes',
    '  StrictHostKeyChecking no',
    '  UserKnownHostsFile /dev/null',
    '  BatchMode yes',
    '  LogLevel ERROR',
    '',
  ].join('\n'),
);
// The bastion Gatehouse replaces: `ssh -J` through a plain OpenSSH sshd on loopback (issue 19).
const jump = ['-F', config, '-J', `${login}@127.0.0.1:${jumpPort}`, ...direct];
// The client's output goes to `wc -c` in a process of its own, as a user's goes to a terminal or a
// file: until 2026-11-27 this process read it, and this process is also the in-process gateway, so
// the gateway's thread read every byte of its own copy's output a second time (128 MiB in 64 KiB
// pipe reads), which a gateway never does. The paths without the gateway paid for that reading too,
// on a core the gateway's thread did not need. `cpuMs`: the machine's CPU during the copy.
function runSsh(target, command) {
  return new Promise((resolve) => {
    const start = performance.now();
    const cpu = machineCpuMs();
    const child = spawn('sh', ['-c', 'ssh "$@" | wc -c', 'sh', ...sshArgs, ...target, command], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', () =>
      resolve({ ms: performance.now() - start, bytes: Number(out.trim()) || 0, cpuMs: machineCpuMs() - cpu }),
    );
  });
}

// CPU time (user + system) of the agent process so far, in ms, from /proc/PID/stat.
const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
function agentCpuMs() {
  const stat = fs.readFileSync(`/proc/${agent.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
}
// MemFree, in MiB: how much memory the page cache can still grow into without taking back pages it
// holds (see the recorder's system time below).
const memFreeMib = () => memInfoMib('MemFree');
// BENCH_SERVER_PROFILE=DIR: a CPU profile of the server's main thread during each gateway bulk run
// (the inspector's profiler, started and stopped around the run: startup and the database stay out).
const serverProfile = process.env.BENCH_SERVER_PROFILE;
let profiler;
if (serverProfile) {
  const { Session } = await import('node:inspector/promises');
  profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
  fs.mkdirSync(serverProfile, { recursive: true });
}
// Waits until no session is live and the search indexer has nothing left to do.
async function settle() {
  for (let i = 0; i < 600; i += 1) {
    const live = (await call('GET', '/api/recording', token)).recordings.filter((r) => !r.ended_on).length;
    if (live === 0) break;
    await sleep(100);
  }
  await server.services.textIndexer.idle();
}

try {
  if (PARTS.has('bulk')) {
    // 1. Bulk output, straight to sshd and through the gateway with and without recording, in
    // alternating rounds (the machine's load drifts; alternating keeps the three comparable).
    // Text, as terminals print it (NUL bytes would cost the recording six bytes each in JSON).
    // Without recording: the bench-only switch RecordingsService.recordTerminal on this in-process
    // server (sessions still get their rows and files; no terminal byte reaches the recorder).
    // BENCH_BULK_SOURCE=zero: NUL bytes instead (`head -c N /dev/zero`), output that is not text.
    const bulk =
      process.env.BENCH_BULK_SOURCE === 'zero'
        ? `head -c ${BULK_MIB * 1048576} /dev/zero`
        : `yes 'gatehouse bulk output 0123456789 abcdefghijklmnopqrstuvwxyz' | head -c ${BULK_MIB * 1048576}`;
    const mibs = (r) => r.bytes / 1048576 / (r.ms / 1000);
    const runs = { direct: [], jump: [], recorded: [], unrecorded: [] };
    // CPU of this process (the server) per MiB: what each mode costs, whatever else the machine runs.
    // And the time the server's main thread (the gateway's event loop) was busy per MiB: when the
    // machine has a core to spare, that thread is what limits throughput.
    const cpuPerMib = { recorded: [], unrecorded: [] };
    const busyPerMib = { recorded: [], unrecorded: [] };
    // And the agent's CPU per MiB (its own process, read from /proc: robust under load).
    const agentCpuPerMib = { recorded: [], unrecorded: [] };
    // And the server's threads per MiB: the gateway's (main) thread, the busiest other (with
    // recording, the recorder's, its user and system time apart), and all the rest (libuv's pool,
    // V8's compiler and collector). The recorder's system time is mostly the copy into the page
    // cache: on this project's machines (Firecracker VMs that hand freed memory back to the host) it
    // is 0.2-0.4 ms per MiB while the cache grows into memory it used before, and 2.0-2.5 once it
    // grows into memory the host took back, each page faulted in again (docs/benchmarks.md,
    // "Fresh memory"). MemFree before and after says which.
    const threadsPerMib = { recorded: [], unrecorded: [] };
    const memFreeAtStart = memFreeMib();
    // How the gateway's thread fared while each recorded copy's recording was finished and indexed.
    const afterRecorded = [];
    const measured = async (mode) => {
      server.services.recordings.recordTerminal = mode === 'recorded';
      const before = process.cpuUsage();
      const threadsBefore = threadCpuMs();
      const agentBefore = agentCpuMs();
      const loop = performance.eventLoopUtilization();
      await profiler?.post('Profiler.start');
      const r = await runSsh(viaGateway, bulk);
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        const file = path.join(serverProfile, `server-${mode}-${Date.now()}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
      }
      const used = process.cpuUsage(before);
      const busy = performance.eventLoopUtilization(loop).active;
      const agentUsed = agentCpuMs() - agentBefore;
      cpuPerMib[mode].push((used.user + used.system) / 1000 / (r.bytes / 1048576));
      busyPerMib[mode].push(busy / (r.bytes / 1048576));
      agentCpuPerMib[mode].push(agentUsed / (r.bytes / 1048576));
      const spent = [...threadCpuMs()].map(([tid, [user, system]]) => {
        const [u0, s0] = threadsBefore.get(tid) ?? [0, 0];
        return { tid, user: user - u0, system: system - s0, all: user - u0 + system - s0 };
      });
      const main = spent.find((t) => t.tid === String(process.pid))?.all ?? 0;
      const others = spent.filter((t) => t.tid !== String(process.pid)).sort((a, b) => b.all - a.all);
      const busiest = others[0] ?? { user: 0, system: 0, all: 0 };
      const rest = others.slice(1).reduce((sum, t) => sum + t.all, 0);
      const mib = r.bytes / 1048576;
      threadsPerMib[mode].push([main / mib, busiest.user / mib, busiest.system / mib, rest / mib]);
      server.services.recordings.recordTerminal = true;
      // A recorded session goes on costing the server after the client saw its last byte: its
      // recording is finished and signed, then its text is indexed for search (the whole cast file
      // read, its text written to the database). Before 2026-11-26 the unrecorded run started at
      // once and shared the process with that work, which is why "without recording" measured
      // slower than "with" in every round. Each run now starts once the previous one's work is done.
      // The event loop's delay meanwhile: on the embedded database the index's statements run on
      // this thread, and every other session's keystrokes wait behind each one.
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const settling = performance.now();
      await settle();
      delay.disable();
      if (mode === 'recorded')
        afterRecorded.push({
          s: (performance.now() - settling) / 1000,
          p99: delay.percentile(99) / 1e6,
          max: delay.max / 1e6,
        });
      return r;
    };
    // The machine's CPU per MiB on each path (every process: clients, sshd, gateway, agent): on two
    // busy cores, a path that costs less CPU per MiB is the faster one.
    const machinePerMib = { direct: [], jump: [], recorded: [], unrecorded: [] };
    // A warm-up copy through the gateway, recorded, of the measured size, not counted in the medians
    // but printed: the first copies after the server and the agent start pay for compiling the
    // relay's code (ssh2, ws, the recorder) and for growing both processes' heaps to what a copy
    // needs. A 16 MiB warm-up (2026-11-27) still left round 1's recorded run at 100–104 MiB/s against
    // 118–133 in round 2, with the agent's CPU per MiB 2.6–2.9 ms against 0.9–1.1 (2026-11-28). A
    // gateway that has served for a while has paid this long before; the printed figure says what a
    // freshly started one does.
    const cold = await runSsh(viaGateway, bulk);
    await settle();
    let missing = 0;
    for (let round = 0; round < BULK_ROUNDS; round += 1) {
      const d = await runSsh(direct, bulk);
      const j = await runSsh(jump, bulk);
      // Which gateway mode goes first alternates by round, so neither always follows the other.
      const order = round % 2 === 0 ? ['recorded', 'unrecorded'] : ['unrecorded', 'recorded'];
      const first = await measured(order[0]);
      const second = await measured(order[1]);
      const g = order[0] === 'recorded' ? first : second;
      const u = order[0] === 'recorded' ? second : first;
      for (const r of [j, g, u]) missing += d.bytes - r.bytes;
      runs.direct.push(mibs(d));
      runs.jump.push(mibs(j));
      runs.recorded.push(mibs(g));
      runs.unrecorded.push(mibs(u));
      for (const [name, r] of Object.entries({ direct: d, jump: j, recorded: g, unrecorded: u }))
        machinePerMib[name].push(r.cpuMs / (r.bytes / 1048576));
    }
    const median = (v) => pct(v, 50);
    const ratios = runs.recorded.map((r, i) => r / runs.unrecorded[i]);
    const toDirect = runs.recorded.map((r, i) => r / runs.direct[i]);
    const toJump = runs.recorded.map((r, i) => r / runs.jump[i]);
    console.log(
      `bulk output ${BULK_MIB} MiB × ${BULK_ROUNDS} rounds (medians), ssh2 native crypto ${nativeCrypto ? 'on' : 'off'}, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}   direct ${median(runs.direct).toFixed(1)} MiB/s   ssh -J ${median(runs.jump).toFixed(1)} MiB/s   gateway without recording ${median(runs.unrecorded).toFixed(1)} MiB/s   with recording ${median(runs.recorded).toFixed(1)} MiB/s (bytes ${missing === 0 ? 'all arrived' : `MISSING ${missing}`})`,
    );
    console.log(
      `first copy after start (recorded, not in the medians): ${mibs(cold).toFixed(1)} MiB/s, ${(cold.cpuMs / (cold.bytes / 1048576)).toFixed(2)} ms of the machine's CPU per MiB`,
    );
    console.log(
      `with/without recording: median ratio ${median(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(3)).join(' ')}; target ≥ 0.9)   gateway/direct ${median(toDirect).toFixed(3)}   gateway/jump ${median(toJump).toFixed(3)} (medians of the rounds' ratios, as with/without)`,
    );
    const roundsOf = (v) => `rounds ${v.map((r) => r.toFixed(2)).join(' ')}`;
    reportTarget({
      name: 'bulk: Gatehouse recorded / direct OpenSSH',
      value: median(toDirect),
      limit: 0.5,
      want: 'at least',
      unit: '',
      detail: `${BULK_MIB} MiB × ${BULK_ROUNDS}, ${median(runs.recorded).toFixed(1)} / ${median(runs.direct).toFixed(1)} MiB/s; ${roundsOf(toDirect)}`,
    });
    reportTarget({
      name: 'bulk: Gatehouse recorded / ssh -J jump host',
      value: median(toJump),
      limit: 1,
      want: 'at least',
      unit: '',
      detail: `${median(runs.recorded).toFixed(1)} / ${median(runs.jump).toFixed(1)} MiB/s; ${roundsOf(toJump)}`,
    });
    reportTarget({
      name: 'bulk: with / without recording',
      value: median(ratios),
      limit: 0.9,
      want: 'at least',
      unit: '',
      detail: `${median(runs.recorded).toFixed(1)} / ${median(runs.unrecorded).toFixed(1)} MiB/s; ${roundsOf(ratios)}`,
    });
    // One line for scripts/bench-ciphers.mjs --gateway, which alternates runs with and without the add-on.
    if (process.env.BENCH_JSON)
      console.log(`bulk-json ${JSON.stringify({ nativeCrypto, ...runs, cpuPerMib, agentCpuPerMib })}`);
    console.log(
      `server per MiB: main thread busy without recording ${median(busyPerMib.unrecorded).toFixed(2)} ms, with ${median(busyPerMib.recorded).toFixed(2)} ms (ratio ${(median(busyPerMib.unrecorded) / median(busyPerMib.recorded)).toFixed(3)})   process CPU without ${median(cpuPerMib.unrecorded).toFixed(2)} ms, with ${median(cpuPerMib.recorded).toFixed(2)} ms (ratio ${(median(cpuPerMib.unrecorded) / median(cpuPerMib.recorded)).toFixed(3)})   agent CPU without ${median(agentCpuPerMib.unrecorded).toFixed(2)} ms, with ${median(agentCpuPerMib.recorded).toFixed(2)} ms   load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const threadLine = (mode) => {
      const [main, user, system, rest] = [0, 1, 2, 3].map((i) =>
        median(threadsPerMib[mode].map((t) => t[i])).toFixed(2),
      );
      return `${main} / ${user}+${system} / ${rest}`;
    };
    console.log(
      `server threads per MiB (medians; main / busiest other, user+system / the rest): without recording ${threadLine('unrecorded')} ms   with ${threadLine('recorded')} ms (recorded rounds' busiest other: ${threadsPerMib.recorded.map((t) => `${t[1].toFixed(2)}+${t[2].toFixed(2)}`).join(', ')})   MemFree ${memFreeAtStart} MiB before the first round, ${memFreeMib()} after the last`,
    );
    console.log(
      `machine CPU per MiB (medians): direct ${median(machinePerMib.direct).toFixed(2)} ms   ssh -J ${median(machinePerMib.jump).toFixed(2)} ms   gateway without recording ${median(machinePerMib.unrecorded).toFixed(2)} ms   with recording ${median(machinePerMib.recorded).toFixed(2)} ms`,
    );
    console.log(
      `after each recorded copy, while its recording is finished and its text indexed (${server.services.database.kind}): ${afterRecorded
        .map((a) => `${a.s.toFixed(1)} s, event loop delay p99 ${a.p99.toFixed(1)} ms max ${a.max.toFixed(1)} ms`)
        .join('; ')}`,
    );
    // The recorder alone on the same text: CPU of the whole process, and the share of its own thread.
    const rec = await Recorder.create(path.join(tmp, 'alone.cast'), crypto.randomUUID(), { width: 80, height: 24 });
    const line = Buffer.from('gatehouse bulk output 0123456789 abcdefghijklmnopqrstuvwxyz\n'.repeat(512));
    const cpu = process.cpuUsage();
    const loop = performance.eventLoopUtilization();
    for (let n = 0; n < (BULK_MIB * 1048576) / line.length; n += 1) {
      rec.output(line);
      if (rec.needsDrain) await new Promise((r) => rec.once('drain', r));
    }
    await rec.finish();
    const used = process.cpuUsage(cpu);
    console.log(
      `recorder alone   ${(BULK_MIB / ((used.user + used.system) / 1e6)).toFixed(1)} MiB per CPU second of the process; the gateway's thread busy ${(performance.eventLoopUtilization(loop).active / BULK_MIB).toFixed(2)} ms per MiB (the rest runs on the recorder's thread)`,
    );
  }

  if (PARTS.has('setup')) {
    // Session setup (issue 19: "setup p95 no slower than the jump host"): `ssh HOST true` with the
    // real OpenSSH client, a new connection each (no multiplexing), on the three paths one after the
    // other, BENCH_SETUP_RUNS times (default 30) after one uncounted round; spawn to exit. Gatehouse's
    // includes its whole sign-in: the user's key, the grant, the agent's stream, the host's login and
    // a recording started and finished.
    const runs = Number(process.env.BENCH_SETUP_RUNS ?? 30);
    const paths = { direct, jump, gatehouse: viaGateway };
    const times = { direct: [], jump: [], gatehouse: [] };
    const once = (target) =>
      new Promise((resolve, reject) => {
        const start = performance.now();
        const child = spawn('ssh', [...sshArgs, ...target, 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (c) => (err += c));
        child.on('exit', (code) =>
          code === 0 ? resolve(performance.now() - start) : reject(new Error(`ssh exited ${code}: ${err.trim()}`)),
        );
      });
    for (let i = 0; i <= runs; i += 1) {
      for (const [name, target] of Object.entries(paths)) {
        const ms = await once(target);
        if (i > 0) times[name].push(ms);
      }
    }
    const line = (name) =>
      `${name.padEnd(10)} p50 ${pct(times[name], 50).toFixed(0)} ms  p95 ${pct(times[name], 95).toFixed(0)} ms`;
    console.log(
      `session setup (ssh HOST true, ${runs} each, interleaved, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    for (const name of Object.keys(paths)) console.log(`  ${line(name)}`);
    reportTarget({
      name: 'setup p95: Gatehouse / ssh -J jump host',
      value: pct(times.gatehouse, 95) / pct(times.jump, 95),
      limit: 1,
      want: 'at most',
      unit: '',
      detail: `ssh HOST true × ${runs}: ${pct(times.gatehouse, 95).toFixed(0)} / ${pct(times.jump, 95).toFixed(0)} ms (direct ${pct(times.direct, 95).toFixed(0)})`,
    });
    console.log(
      `  gatehouse/jump p95 ${(pct(times.gatehouse, 95) / pct(times.jump, 95)).toFixed(3)} (target ≤ 1)   gatehouse/direct p95 ${(pct(times.gatehouse, 95) / pct(times.direct, 95)).toFixed(3)}`,
    );
    await settle();
  }

  if (PARTS.has('echo') || PARTS.has('echo-bulk')) {
    // 2. Keystroke echo with the real OpenSSH client in a PTY (util-linux `script` gives ssh a
    // terminal, so it runs in interactive mode as a user's does: raw local tty, TCP_NODELAY), on three
    // paths in one run: straight to sshd, `ssh -J` through the same plain sshd as a jump host, and
    // through Gatehouse (gateway → agent → sshd, recorded). The remote end is `cat` on a PTY: its line
    // discipline echoes each key. One key at a time, ECHO_GAP_MS after the previous echo came back.
    const quote = (a) => `'${a.replaceAll("'", "'\\''")}'`;
    const paths = {
      direct: ['-p', String(sshdPort), `${login}@127.0.0.1`],
      jump: ['-J', `${login}@127.0.0.1:${jumpPort}`, '-p', String(sshdPort), `${login}@127.0.0.1`],
      gatehouse: viaGateway,
    };
    // And a generic tunnel to the same sshd through `gatehouse tunnel` (its local listener → the
    // server's tunnel endpoint → the agent): the other way a user's keystrokes cross Gatehouse.
    const generic = (
      await call('POST', '/api/tunneldefinition/generic', token, {
        name: 'bench-generic',
        host_id: agentId,
        port: sshdPort,
      })
    ).definition;
    await call('PUT', `/api/tunneldefinition/${generic.id}/users`, token, { users: [me.id] });
    const tunnelCli = spawn(
      process.execPath,
      [
        'apps/agent/dist/tunnel-cli.js',
        'tunnel',
        generic.id,
        '--server',
        server.url,
        '--token',
        token,
        '--local-port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const tunnelPort = await new Promise((resolve, reject) => {
      let out = '';
      tunnelCli.stdout.on('data', (c) => {
        out += c;
        const m = /listening on [\d.]+:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      tunnelCli.on('exit', () => reject(new Error(`gatehouse tunnel ended: ${out}`)));
    });
    paths.tunnel = ['-p', String(tunnelPort), `${login}@127.0.0.1`];
    // The typist runs in a process of its own (scripts/bench-typist.mjs), as a user's terminal is
    // not the gateway's process; BENCH_ECHO_IN_PROCESS=1 types from this process as before 2026-11-27
    // (each echo then also waits for the in-process gateway's thread before it is timed).
    const sshCommand = (target) =>
      ['ssh', '-F', config, '-tt', ...target, ...(ECHO_SHELL ? [] : ['exec cat'])].map(quote).join(' ');
    async function typist(options) {
      if (process.env.BENCH_ECHO_IN_PROCESS === '1')
        return options.bulk ? typeWhileCopying(options) : { samples: await typeKeys(options) };
      const child = spawn(
        process.execPath,
        [new URL('./bench-typist.mjs', import.meta.url).pathname, JSON.stringify(options)],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      if (code !== 0) throw new Error(`the typist failed (${code}) on ${options.command}`);
      return JSON.parse(out);
    }
    const echo = async (target, phase) =>
      (await typist({ command: sshCommand(target), keys: ECHO_KEYS, gapMs: ECHO_GAP_MS, phase })).samples;
    const results = {};
    // And typing while another session of the same path copies in bulk (issue 19: one session's
    // bulk copy must not stall the others' typing): the second ssh prints `yes` until the keys are done.
    const underBulk = {};
    const withBulk = (target, name) =>
      typist({
        command: sshCommand(target),
        keys: ECHO_KEYS,
        gapMs: ECHO_GAP_MS,
        phase: `bulk-${name}`,
        bulk: ['ssh', '-F', config, ...target, 'yes "$(printf %0100d 0)"'],
      });
    try {
      for (const [name, target] of Object.entries(paths)) results[name] = await echo(target, name);
      if (PARTS.has('echo-bulk'))
        for (const name of (process.env.BENCH_ECHO_BULK_PATHS ?? 'direct,jump,gatehouse').split(',')) {
          underBulk[name] = await withBulk(paths[name], name);
          await settle();
        }
    } finally {
      tunnelCli.kill('SIGTERM');
    }
    const show = (v) =>
      `p50 ${pct(v, 50).toFixed(2)} ms p99 ${pct(v, 99).toFixed(2)} ms (max ${Math.max(...v).toFixed(2)}, over 20 ms: ${v.filter((x) => x > 20).length})`;
    console.log(
      `keystroke echo   OpenSSH client in a PTY, ${ECHO_KEYS} keys ${ECHO_GAP_MS} ms apart, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (const [name, v] of Object.entries(results)) console.log(`  ${name.padEnd(10)} ${show(v)}`);
    const d = results.direct;
    for (const name of ['jump', 'gatehouse', 'tunnel']) {
      const v = results[name];
      console.log(
        `  ${name.padEnd(10)} added vs direct: p50 ${(pct(v, 50) - pct(d, 50)).toFixed(2)} ms${name === 'jump' ? '' : ' (target ≤ 1)'}   p99 ${(pct(v, 99) - pct(d, 99)).toFixed(2)} ms${name === 'jump' ? '' : ' (target ≤ 5)'}`,
      );
    }
    const keys = `${ECHO_KEYS} keys ${ECHO_GAP_MS} ms apart`;
    for (const [p, limit] of [
      [50, 1],
      [99, 5],
    ])
      reportTarget({
        name: `keystroke echo added by Gatehouse, p${p}`,
        value: pct(results.gatehouse, p) - pct(d, p),
        limit,
        want: 'at most',
        unit: 'ms',
        detail: `${keys}: ${pct(results.gatehouse, p).toFixed(2)} against direct ${pct(d, p).toFixed(2)} ms (ssh -J ${pct(results.jump, p).toFixed(2)})`,
      });
    if (PARTS.has('echo-bulk')) {
      console.log('keystroke echo while a second session of the same path copies `yes` output in bulk');
      for (const [name, r] of Object.entries(underBulk))
        console.log(
          `  ${name.padEnd(10)} ${show(r.samples)}   the copy meanwhile ${r.mibPerS.toFixed(1)} MiB/s   p99 ratio to direct ${underBulk.direct ? (pct(r.samples, 99) / pct(underBulk.direct.samples, 99)).toFixed(2) : '-'}`,
        );
    }
  }

  if (PARTS.has('live')) {
    // 3. Live view: sessions printing their clock ten times a second, two watchers each, in a
    // separate process (as consoles are). The lines come from bash builtins (EPOCHREALTIME, read -t)
    // rather than `date` and `sleep`: the gateway sees the same traffic, and the 2-core machine is
    // not spent on a thousand forks a second. Two figures: from gateway receipt (the time the
    // recorder gave the event, when its first byte arrived) to the watcher, which is the target; and
    // from the line's own clock (adds sshd and the agent).
    const sessions = [];
    const clockLoop = `exec bash -c 'exec 3<> <(:); for i in {1..${LIVE_SECONDS * 10}}; do echo \${EPOCHREALTIME/./}; read -t 0.1 -u 3; done'`;
    for (let i = 0; i < LIVE_SESSIONS; i += 1) {
      sessions.push(spawn('ssh', [...sshArgs, ...viaGateway, clockLoop], { stdio: 'ignore' }));
      if (i % 10 === 9) await sleep(200);
    }
    // Every session up (or 30 s: a loaded machine takes its time over 50 handshakes).
    for (let waited = 0; waited < 30_000; waited += 500) {
      const up = (await call('GET', '/api/recording', token)).recordings.filter((r) => !r.ended_on).length;
      if (up >= LIVE_SESSIONS) break;
      await sleep(500);
    }
    const live = (await call('GET', '/api/recording', token)).recordings
      .filter((r) => !r.ended_on)
      .map((r) => ({ id: r.id, startedAt: server.services.recordings.find(r.id)?.recorder.startedAt }))
      .filter((r) => r.startedAt !== undefined);
    // Samples count from the moment every watcher is attached (its replay came), for `ms`.
    const watcherCode = `
      import { io } from 'socket.io-client';
      const { url, token, live, ms } = JSON.parse(process.argv[1]);
      const receipt = [], e2e = [], sockets = [];
      let attached = 0, measuring = false;
      const report = () => {
        for (const s of sockets) s.close();
        process.stdout.write(JSON.stringify({ receipt, e2e, attached }));
        process.exit(0);
      };
      const start = () => { if (measuring) return; measuring = true; setTimeout(report, ms); };
      setTimeout(start, 20000);
      for (const rec of live) for (let w = 0; w < 2; w += 1) {
        const socket = io(url, { auth: { token }, transports: ['websocket'] });
        socket.on('record_out', (m) => {
          if (m.seq === 0) {
            if (++attached === live.length * 2) start();
            return;
          }
          if (!measuring) return;
          const now = Date.now();
          for (const [t, , text] of m.events) {
            receipt.push(now - (rec.startedAt + t * 1000));
            for (const line of text.split(/\\r?\\n/)) if (/^\\d{16}$/.test(line)) e2e.push(now - Number(line) / 1000);
          }
        });
        socket.emit('new_record_attach', { recording_id: rec.id, replay: true });
        sockets.push(socket);
      }
    `;
    const watched = await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        ['--input-type=module', '-e', watcherCode, JSON.stringify({ url: server.url, token, live, ms: 6000 })],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.on('exit', () => resolve(JSON.parse(out || '{"receipt":[],"e2e":[],"attached":0}')));
    });
    for (const s of sessions) s.kill('SIGKILL');
    const { receipt, e2e, attached } = watched;
    console.log(
      `live view        ${live.length} sessions × 2 watchers (another process, ${attached} attached), ${receipt.length} events: gateway receipt → watcher p50 ${pct(receipt, 50)?.toFixed(0)} ms p99 ${pct(receipt, 99)?.toFixed(0)} ms (target p99 ≤ 150)   line printed → watcher p50 ${pct(e2e, 50)?.toFixed(0)} ms p99 ${pct(e2e, 99)?.toFixed(0)} ms`,
    );
    await sleep(1000);
  }

  if (PARTS.has('idle')) {
    // 4. Memory per idle session: what the server's heap and buffers hold after a full collection
    // (the live part's garbage is gone), and the process's RSS beside it (RSS can fall when V8 hands
    // pages back meanwhile; bench-scale.mjs measures a separate server's RSS at 1,000 sessions).
    const gc = global.gc ?? (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc'));
    // Several collections with turns between: finalizers (the first start's initdb memory) free more
    // on the next one.
    const held = async () => {
      for (let i = 0; i < 4; i += 1) {
        gc();
        await sleep(250);
      }
      const m = process.memoryUsage();
      return { rss: m.rss, heap: m.heapUsed + m.external };
    };
    await sleep(1000);
    const before = await held();
    const idle = [];
    for (let i = 0; i < IDLE_SESSIONS; i += 1) {
      idle.push(spawn('ssh', [...sshArgs, '-tt', ...viaGateway, 'sleep 600'], { stdio: ['pipe', 'ignore', 'ignore'] }));
      if (i % 20 === 19) await sleep(1000);
    }
    await sleep(5000);
    const opened = (await call('GET', '/api/recording', token)).recordings.filter((r) => !r.ended_on).length;
    const after = await held();
    const perSession = (after.heap - before.heap) / Math.max(1, opened);
    const mibOf = (b) => `${b >= 0 ? '+' : ''}${(b / 1048576).toFixed(1)} MiB`;
    console.log(
      `idle sessions    ${opened} open: server heap and buffers ${mibOf(after.heap - before.heap)} after a full collection, ${(perSession / 1024).toFixed(0)} KiB each → 1000 sessions ≈ ${((perSession * 1000) / 1073741824).toFixed(2)} GiB (target ≤ 2 GiB); process RSS ${mibOf(after.rss - before.rss)}`,
    );
    for (const s of idle) s.kill('SIGKILL');
  }
} finally {
  // SIGTERM lets the agent exit on its own (so `NODE_OPTIONS=--cpu-prof` writes its profile too).
  agent.kill('SIGTERM');
  await Promise.race([new Promise((r) => agent.once('exit', r)), sleep(3000)]);
  agent.kill('SIGKILL');
  await server.close();
  await database.close();
  sshd.kill('SIGTERM');
  jumpSshd.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
  setTimeout(() => process.exit(0), 500).unref();
}

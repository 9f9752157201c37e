// What each SSH cipher costs ssh2 on this machine, with and without its native crypto add-on (ADR 0003),
// in the two roles the gateway plays: the server the user's OpenSSH client reaches (ssh2 encrypts a
// bulk download, `ssh -c CIPHER` decrypts), and the client of the target's sshd (sshd encrypts, ssh2
// decrypts). The figures order the gateway's cipher preference (apps/server/src/gateway/ssh-algorithms.ts).
// Rounds alternate pure JavaScript and native in separate processes (the add-on is chosen when ssh2
// loads): js, native, js, native... Environment: BENCH_CIPHER_MIB (default 128), BENCH_CIPHER_ROUNDS (3).
// `--gateway`: the whole gateway with and without the add-on (below; BENCH_GATEWAY_MIB, BENCH_GATEWAY_ROUNDS).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freePort, makeSshKeys, sleep, startSshd } from './bench-ssh-setup.mjs';

const MIB = Number(process.env.BENCH_CIPHER_MIB ?? 128);
const ROUNDS = Number(process.env.BENCH_CIPHER_ROUNDS ?? 3);
const CIPHERS = [
  'aes128-gcm@openssh.com',
  'aes256-gcm@openssh.com',
  'chacha20-poly1305@openssh.com',
  'aes128-ctr',
  'aes256-ctr',
];
const require = createRequire(import.meta.url);
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

if (process.argv[2] === '--child') {
  // One process, one mode: `js` refuses the add-on before ssh2 loads, as on a machine that cannot build it.
  const mode = process.argv[3];
  const tmp = process.argv[4];
  const sshdPort = Number(process.argv[5]);
  if (mode === 'js') await import('./ssh2-without-native.mjs');
  const ssh2 = require('ssh2');
  const { bindingAvailable } = require('ssh2/lib/protocol/crypto.js');
  if (bindingAvailable !== (mode === 'native')) throw new Error(`ssh2 native add-on: wanted ${mode}`);
  // CPU of this process (ssh2's side alone) per MiB: what the cipher costs the gateway's thread,
  // and a figure the machine's load moves far less than MiB/s.
  const cpuMsPerMib = (before, bytes) => {
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / (bytes / 1048576);
  };
  const text = Buffer.from('gatehouse bulk output 0123456789 abcdefghijklmnopqrstuvwxyz\n'.repeat(1024));
  const hostKey = fs.readFileSync(path.join(tmp, 'host_key'));
  const server = new ssh2.Server(
    { hostKeys: [hostKey], algorithms: { cipher: CIPHERS, hmac: ['hmac-sha2-256-etm@openssh.com'] } },
    (client) => {
      client.on('authentication', (ctx) => ctx.accept());
      client.on('error', () => {});
      client.on('session', (accept) => {
        accept().on('exec', (acceptExec, _reject, info) => {
          const channel = acceptExec();
          const total = Number(info.command);
          let sent = 0;
          const pump = () => {
            while (sent < total) {
              const chunk = text.subarray(0, Math.min(text.length, total - sent));
              sent += chunk.length;
              if (!channel.write(chunk)) return void channel.once('drain', pump);
            }
            channel.exit(0);
            channel.end();
          };
          pump();
        });
      });
    },
  );
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  const sshArgs = ['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR'];
  const measure = async (cipher, total) => {
    // Server role: OpenSSH's ssh downloads from ssh2.
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const bytes = await new Promise((resolve) => {
      const child = spawn(
        'ssh',
        [...sshArgs, '-i', path.join(tmp, 'user_key'), '-c', cipher, '-p', String(port), 'u@127.0.0.1', String(total)],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let n = 0;
      child.stdout.on('data', (c) => (n += c.length));
      child.on('exit', () => resolve(n));
    });
    const server = bytes / 1048576 / ((performance.now() - t0) / 1000);
    const serverCpu = cpuMsPerMib(c0, bytes);
    if (bytes !== total) throw new Error(`${cipher}: ${bytes} of ${total} bytes`);
    // Client role: ssh2 downloads from OpenSSH's sshd.
    const conn = new ssh2.Client();
    await new Promise((resolve, reject) => {
      conn.once('ready', resolve).once('error', reject);
      conn.connect({
        host: '127.0.0.1',
        port: sshdPort,
        username: os.userInfo().username,
        privateKey: fs.readFileSync(path.join(tmp, 'user_key')),
        algorithms: { cipher: [cipher], hmac: ['hmac-sha2-256-etm@openssh.com'] },
      });
    });
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    const got = await new Promise((resolve, reject) => {
      conn.exec(`yes 'gatehouse bulk output 0123456789 abcdefghijklmnopqrstuvwxyz' | head -c ${total}`, (err, s) => {
        if (err) return reject(err);
        let n = 0;
        s.on('data', (c) => (n += c.length)).on('close', () => resolve(n));
        s.stderr.resume();
      });
    });
    const client = got / 1048576 / ((performance.now() - t1) / 1000);
    const clientCpu = cpuMsPerMib(c1, got);
    conn.end();
    if (got !== total) throw new Error(`${cipher} (client role): ${got} of ${total} bytes`);
    return { server, client, serverCpu, clientCpu };
  };
  // A warm-up first (the first transfer of a process pays for compiling ssh2's code), then every
  // cipher, starting each round at another one.
  const round = Number(process.argv[6]);
  await measure(CIPHERS[round % CIPHERS.length], 8 * 1048576);
  const results = {};
  for (let i = 0; i < CIPHERS.length; i += 1) {
    const cipher = CIPHERS[(round + i) % CIPHERS.length];
    results[cipher] = await measure(cipher, MIB * 1048576);
  }
  server.close();
  process.stdout.write(JSON.stringify(results));
  process.exit(0);
}

if (process.argv[2] === '--gateway') {
  // The whole gateway, not just ssh2: `scripts/bench-gateway.mjs --only bulk` (direct, ssh -J, Gatehouse
  // with and without recording) once per mode, modes alternating round after round: `native` (this
  // build with the add-on), `js` (this build, add-on refused), and `before` when BENCH_BEFORE_DIR names
  // an older build's checkout (its apps built, node_modules beside it; run with the add-on refused, as
  // it shipped). Ratios are taken within one run (same minute, same load), then their median.
  const hook = new URL('./ssh2-without-native.mjs', import.meta.url).pathname;
  const before = process.env.BENCH_BEFORE_DIR;
  const modes = {
    ...(before ? { before: { cwd: before, args: ['--import', hook] } } : {}),
    native: { cwd: process.cwd(), args: [] },
    js: { cwd: process.cwd(), args: ['--import', hook] },
  };
  const rounds = Number(process.env.BENCH_GATEWAY_ROUNDS ?? 3);
  const mib = process.env.BENCH_GATEWAY_MIB ?? '128';
  console.log(
    `gateway bulk download, ${mib} MiB of text, ${rounds} rounds of ${Object.keys(modes).join('/')}; load ${load()}`,
  );
  const runs = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
  for (let round = 0; round < rounds; round += 1)
    for (const [mode, { cwd, args }] of Object.entries(modes)) {
      let out;
      try {
        out = execFileSync(process.execPath, [...args, 'scripts/bench-gateway.mjs', '--only', 'bulk'], {
          cwd,
          encoding: 'utf8',
          env: { ...process.env, BENCH_BULK_ROUNDS: '1', BENCH_BULK_MIB: mib, BENCH_JSON: '1' },
          stdio: ['ignore', 'pipe', 'inherit'],
          timeout: 900_000,
        });
      } catch (error) {
        console.log(`  round ${round + 1} ${mode.padEnd(7)} FAILED (${error.message.split('\n')[0]}); load ${load()}`);
        continue;
      }
      const run = JSON.parse(/^bulk-json (.*)$/m.exec(out)[1]);
      if (run.nativeCrypto !== (mode === 'native')) throw new Error(`${mode}: ssh2 native add-on ${run.nativeCrypto}`);
      runs[mode].push(run);
      console.log(`  round ${round + 1} ${mode.padEnd(7)} load ${load()}  ${/^bulk output .*$/m.exec(out)[0]}`);
    }
  const figure = (mode, f) => median(runs[mode].map(f));
  console.log(
    'MiB/s, medians   direct   ssh -J   Gatehouse recorded   unrecorded   recorded/direct   recorded/jump   server CPU ms/MiB recorded',
  );
  for (const mode of Object.keys(modes))
    console.log(
      [
        mode.padEnd(14),
        ...['direct', 'jump', 'recorded', 'unrecorded'].map((k) =>
          figure(mode, (r) => r[k][0])
            .toFixed(1)
            .padStart(8),
        ),
        figure(mode, (r) => r.recorded[0] / r.direct[0])
          .toFixed(3)
          .padStart(14),
        figure(mode, (r) => r.recorded[0] / r.jump[0])
          .toFixed(3)
          .padStart(14),
        figure(mode, (r) => r.cpuPerMib.recorded[0])
          .toFixed(1)
          .padStart(14),
      ].join(' '),
    );
  console.log(`load at the end ${load()}`);
  process.exit(0);
}

// The target: Debian's sshd on loopback, keys for the current user.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-benchciphers-'));
let sshd;
try {
  makeSshKeys(tmp);
  const sshdPort = await freePort();
  sshd = startSshd(tmp, sshdPort);
  await sleep(500);
  console.log(`ssh2 ciphers, ${MIB} MiB of text per transfer, ${ROUNDS} rounds js/native alternating; load ${load()}`);
  const runs = { js: [], native: [] };
  for (let round = 0; round < ROUNDS; round += 1)
    for (const mode of ['js', 'native']) {
      const out = execFileSync(
        process.execPath,
        [process.argv[1], '--child', mode, tmp, String(sshdPort), String(round)],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      runs[mode].push(JSON.parse(out));
    }
  const m = (mode, cipher, figure) => median(runs[mode].map((r) => r[cipher][figure]));
  for (const [title, figure] of [
    ['MiB/s', ''],
    ['ssh2 process CPU ms per MiB', 'Cpu'],
  ]) {
    console.log(`${title}, medians`.padEnd(31), 'server role (ssh2 → ssh)   client role (sshd → ssh2)');
    console.log('cipher                               js    native          js    native');
    for (const cipher of CIPHERS) {
      const f = (mode, role) =>
        m(mode, cipher, `${role}${figure}`)
          .toFixed(figure ? 2 : 1)
          .padStart(8);
      console.log(
        `${cipher.padEnd(30)} ${f('js', 'server')}  ${f('native', 'server')}    ${f('js', 'client')}  ${f('native', 'client')}`,
      );
    }
  }
  console.log(`load at the end ${load()}`);
} finally {
  sshd?.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}

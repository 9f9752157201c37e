// The processes the fault suite starts and breaks: sshd (the target host), a PostgreSQL cluster and a
// redis-server of its own (never the machine's), the built server and the built agent. Every child is
// remembered by its pid so that cleanup() ends exactly what the suite started.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
export const AGENT_CLI = path.join(ROOT, 'apps/agent/dist/cli.js');
export const ADMIN = { email: 'faults@example.test', password: 'faults-password-1' };

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every child the suite started, ended (by pid) at the end of the run. */
const children = new Set();
/** Cleanup steps that are not plain kills (pg_ctl stop, temp folders). */
const finalizers = [];

/** Spawns a child the suite owns. */
export function own(command, args, options) {
  const child = spawn(command, args, options);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Ends every child the suite started, runs the finalizers (last first). */
export function cleanup() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const step of finalizers.splice(0).reverse()) {
    try {
      step();
    } catch {
      // cleanup goes on
    }
  }
}

/** A temp folder removed at cleanup unless FAULTS_KEEP=1. */
export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (process.env.FAULTS_KEEP !== '1') finalizers.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Debian's sshd on loopback; logins go to the current user with keys from its authorized_keys. */
export async function startSshd(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  const keys = path.join(dir, 'authorized_keys');
  fs.writeFileSync(keys, '', { mode: 0o600 });
  const port = await freePort();
  fs.mkdirSync('/run/sshd', { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${keys}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'MaxStartups 1000',
      'MaxSessions 1000',
      'LogLevel QUIET',
    ].join('\n'),
  );
  const child = own('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(await listening(port)); i += 1) await sleep(50);
  return {
    port,
    child,
    login: os.userInfo().username,
    authorizeKey: (publicKey) => fs.appendFileSync(keys, `${publicKey.trim()}\n`),
  };
}

/** A user key pair made by ssh-keygen. */
export function userKey(dir, name) {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  return { file, publicKey: fs.readFileSync(`${file}.pub`, 'utf8').trim() };
}

/** The newest PostgreSQL server binaries on the machine, or undefined. */
export function postgresBin() {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => /^\d+$/.test(v)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  const bin = newest && path.join(base, newest, 'bin');
  return bin && fs.existsSync(path.join(bin, 'initdb')) ? bin : undefined;
}

/**
 * A PostgreSQL cluster of the suite's own on 127.0.0.1 and a free port, in a temp folder. As root the
 * binaries run as the postgres user (PostgreSQL refuses root). stop()/start() restart it in place.
 */
export async function startPostgres(bin) {
  const root = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-faults-pg-'));
  if (root) execFileSync('chown', ['postgres:postgres', dir]);
  // Asynchronous, so that the suite's clients keep measuring while pg_ctl waits.
  const as = (command, args) =>
    new Promise((resolve, reject) => {
      const full = path.join(bin, command);
      const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', full, ...args]] : [full, args];
      execFile(file, argv, (error, stdout, stderr) =>
        error ? reject(new Error(`${command} failed: ${stderr || stdout || error.message}`)) : resolve(stdout),
      );
    });
  const data = path.join(dir, 'data');
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const pg = {
    port,
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']),
    /** fast: connections are ended and the cluster shuts down cleanly; immediate: as if it crashed. */
    stop: (mode = 'fast') => as('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']),
    running: () => fs.existsSync(path.join(data, 'postmaster.pid')),
  };
  finalizers.push(() => {
    if (pg.running()) {
      const stop = [path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'];
      if (root) spawnSync('runuser', ['-u', 'postgres', '--', ...stop]);
      else spawnSync(stop[0], stop.slice(1));
    }
    if (process.env.FAULTS_KEEP !== '1') fs.rmSync(dir, { recursive: true, force: true });
  });
  await pg.start();
  return pg;
}

/** A redis-server of the suite's own (no persistence); kill() and start() it on the same port. */
export async function startRedis() {
  const port = await freePort();
  const redis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    child: undefined,
    async start() {
      redis.child = own(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
        { stdio: 'ignore' },
      );
      for (let i = 0; i < 100 && !(await listening(port)); i += 1) await sleep(50);
    },
    async kill() {
      const child = redis.child;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
  await redis.start();
  return redis;
}

/** A gatehouse-agent process (the built CLI); `connectedAt` is when it last printed that it connected. */
export function startAgent({ server, key, hostname, stateDir }) {
  const args = [AGENT_CLI, '--server', server, '--state-dir', stateDir, '--hostname', hostname];
  if (key) args.push('--key', key);
  const child = own(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const agent = { child, output: '', connectedAt: 0, connections: 0 };
  const read = (chunk) => {
    agent.output = (agent.output + chunk.toString()).slice(-20_000);
    if (/connected to /.test(chunk.toString())) {
      agent.connectedAt = Date.now();
      agent.connections += 1;
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  return agent;
}

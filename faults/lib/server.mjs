// The built server as a child process on fixed loopback ports (so that a restart keeps its URL for the
// agent), with its exits noticed and its resident memory sampled every 100 ms from /proc.
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN, SERVER_MAIN, own, sleep } from './processes.mjs';

/** Resident set size of a process in bytes (VmRSS), or undefined once it is gone. */
export function rss(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const mib = (bytes) => (bytes / 1048576).toFixed(0);

/**
 * One server instance: start() and restart on the same data folder, database and ports; kill() with
 * SIGKILL. `exits` lists every exit the suite did not ask for (with the log's last lines): the server
 * must never exit by itself. Memory: mark() opens a window, window() answers its start and peak.
 */
export class ServerInstance {
  constructor({ name, dataDir, port, sshPort, env }) {
    Object.assign(this, { name, dataDir, port, sshPort, env });
    this.url = `http://127.0.0.1:${port}`;
    this.child = undefined;
    this.exits = [];
    this.log = path.join(dataDir, '..', `${name}.log`);
    this.killing = false;
    this.current = 0;
    this.peak = 0;
    this.start_ = 0;
    this.runPeak = 0;
    this.sampler = setInterval(() => this.sample(), 100);
    this.sampler.unref();
  }

  sample() {
    const value = this.child?.pid && this.child.exitCode === null ? rss(this.child.pid) : undefined;
    if (value === undefined) return;
    this.current = value;
    this.peak = Math.max(this.peak, value);
    this.runPeak = Math.max(this.runPeak, value);
  }

  /** Starts a memory window at the current RSS. */
  mark() {
    this.sample();
    this.start_ = this.current;
    this.peak = this.current;
  }

  /** The window's start and peak RSS in bytes. */
  window() {
    this.sample();
    return { start: this.start_, peak: this.peak };
  }

  get alive() {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and waits until it printed its banner (or fails with its output). */
  async start() {
    fs.mkdirSync(this.dataDir, { recursive: true });
    const out = fs.openSync(this.log, 'a');
    const child = own(process.execPath, [SERVER_MAIN], {
      env: {
        ...process.env,
        GATEHOUSE_DATA_DIR: this.dataDir,
        HOST: '127.0.0.1',
        PORT: String(this.port),
        GATEHOUSE_SSH_PORT: String(this.sshPort),
        GATEHOUSE_SSH_HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
        GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
        GATEHOUSE_LOGIN_RATE_LIMIT: '100000',
        GATEHOUSE_BUILD_TAG: 'faults',
        DATABASE_URL: '',
        REDIS_URL: '',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', out],
    });
    fs.closeSync(out);
    this.child = child;
    this.killing = false;
    child.once('exit', (code, signal) => {
      if (this.killing) return;
      this.exits.push({ at: Date.now(), code, signal, log: this.tail(8) });
    });
    let banner = '';
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not start in 120 s: ${banner}`)), 120_000);
      child.stdout.on('data', (chunk) => {
        fs.appendFileSync(this.log, chunk);
        banner += chunk.toString();
        if (/running at /.test(banner) && /SSH gateway/.test(banner)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited ${code} while starting: ${banner} ${this.tail(8)}`));
      });
    });
    this.sample();
  }

  /** SIGKILL, as a crash or the OOM killer would; resolves once the process is gone. */
  async kill() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.killing = true;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  /** The last lines of the server's log (its stdout and stderr). */
  tail(lines) {
    try {
      return fs.readFileSync(this.log, 'utf8').trim().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  /** Exits since `since` (ms epoch) that the suite did not cause. */
  exitsSince(since) {
    return this.exits.filter((e) => e.at >= since);
  }

  stop() {
    clearInterval(this.sampler);
  }
}

/** Waits until the server answers /api/health (any answer); resolves with the ms it took. */
export async function serving(server, timeoutMs = 60_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return Date.now() - started;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error(`${server.name} did not answer /api/health within ${timeoutMs / 1000} s`);
}

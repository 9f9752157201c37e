// X displays and an RDP host for the benchmarks (scripts must not import the server's test rigs,
// which the build leaves out): a private Xvfb, and freerdp-shadow-cli serving one on 127.0.0.1, as
// apps/server/src/test/desktop-rig.ts startRdpHost does for the tests. Every process is started in
// its own process group, so stop() ends it with whatever it started.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { releaseSegmentsOf } from '../apps/server/dist/desktop/shared-memory.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Ends a child and everything in its process group (SIGKILL). */
export function killGroup(child) {
  if (!child?.pid) return;
  const members = groupMembers(child.pid);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // gone
    }
  }
  // What they shared with an X server (MIT-SHM) they can no longer free: marked for removal, it
  // goes once detached (apps/server/src/desktop/shared-memory.ts says why it matters).
  releaseSegmentsOf(...members);
}

/** The processes of process group `group` (Linux's /proc; the field after the command's ')' is the state). */
function groupMembers(group) {
  const members = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === group) members.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return members;
}

/** Starts a program in its own process group (stdio ignored unless given). */
export function spawnGroup(command, args, options = {}) {
  return spawn(command, args, { stdio: 'ignore', ...options, detached: true });
}

/**
 * A private Xvfb of width×height on a free display number; answers { display, env, child, stop() }.
 * The display answers X requests once this resolves.
 */
export async function startXvfb(width, height) {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const display = 200 + Math.floor(Math.random() * 800);
    if (fs.existsSync(`/tmp/.X11-unix/X${display}`) || fs.existsSync(`/tmp/.X${display}-lock`)) continue;
    const child = spawnGroup('Xvfb', [
      `:${display}`,
      '-screen',
      '0',
      `${width}x${height}x24`,
      '-nolisten',
      'tcp',
      '-noreset',
    ]);
    const started = Date.now();
    while (!fs.existsSync(`/tmp/.X11-unix/X${display}`) && child.exitCode === null && Date.now() - started < 10_000)
      await sleep(50);
    if (child.exitCode !== null || !fs.existsSync(`/tmp/.X11-unix/X${display}`)) {
      killGroup(child);
      continue;
    }
    const env = { ...process.env, DISPLAY: `:${display}` };
    // The socket exists a moment before the server answers: retry until a request succeeds.
    for (let i = 0; ; i += 1) {
      try {
        execFileSync('xdpyinfo', [], { env, stdio: 'ignore' });
        break;
      } catch (error) {
        if (i > 50) {
          killGroup(child);
          throw error;
        }
        await sleep(100);
      }
    }
    return { display, env, child, stop: () => killGroup(child) };
  }
  throw new Error('no free X display');
}

/** Waits until something listens on 127.0.0.1:port, or throws after timeoutMs or when `child` exits. */
export async function waitForPort(port, child, timeoutMs, what) {
  const started = Date.now();
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (child.exitCode !== null || Date.now() - started > timeoutMs) throw new Error(`${what} did not start`);
    await sleep(100);
  }
}

/**
 * An RDP host: an Xvfb of one colour served by freerdp-shadow-cli on 127.0.0.1 (any login accepted:
 * `-auth`). Answers { display, env, port, stop() }.
 */
export async function startRdpHost({ width, height, colour }) {
  const x = await startXvfb(width, height);
  const children = [x.child];
  const stop = () => {
    for (const child of children.reverse()) killGroup(child);
  };
  try {
    execFileSync('xsetroot', ['-solid', colour], { env: x.env, stdio: 'ignore' });
    const port = await freePort();
    const shadow = spawnGroup('freerdp-shadow-cli', [`/port:${port}`, '/bind-address:127.0.0.1', '-auth'], {
      env: x.env,
    });
    children.push(shadow);
    await waitForPort(port, shadow, 15_000, 'freerdp-shadow-cli');
    return {
      display: x.display,
      env: x.env,
      port,
      /** Starts a program on the host's display; it ends with the host. */
      run(command, args) {
        const child = spawnGroup(command, args, { env: x.env });
        children.push(child);
        return child;
      },
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

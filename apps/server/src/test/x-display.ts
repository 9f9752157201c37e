import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The programs the plain-X-desktop tests run (Debian: xvfb xauth x11-xserver-utils freerdp2-x11 freerdp2-shadow-x11 ffmpeg; .ci/run installs them). */
export const PLAIN_X_PROGRAMS = ['Xvfb', 'xauth', 'xsetroot', 'freerdp-shadow-cli', 'xfreerdp', 'ffmpeg', 'ffprobe'];

/** The programs of `names` found on no folder of PATH. */
export function missingPrograms(names: string[]): string[] {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return names.filter(
    (name) =>
      !dirs.some((dir) => {
        try {
          fs.accessSync(path.join(dir, name), fs.constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }),
  );
}

/**
 * An X display as a real desktop has one: an Xvfb that only admits clients holding its
 * MIT-MAGIC-COOKIE-1, kept in an owner-only authority file. `env` is what a client needs.
 */
export interface XDisplay {
  /** ':N' */
  display: string;
  /** The authority file holding the display's cookie. */
  xauthority: string;
  /** The environment of a client of this display (DISPLAY and XAUTHORITY). */
  env: NodeJS.ProcessEnv;
  stop(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts an Xvfb of the given size with a cookie, painted `colour` when given (xsetroot). */
export async function startXDisplay(options: { width: number; height: number; colour?: string }): Promise<XDisplay> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-xdisplay-'));
  const xauthority = path.join(dir, 'Xauthority');
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const number = 300 + Math.floor(Math.random() * 600);
    if (fs.existsSync(`/tmp/.X11-unix/X${number}`) || fs.existsSync(`/tmp/.X${number}-lock`)) continue;
    fs.rmSync(xauthority, { force: true });
    execFileSync('xauth', ['-q', '-f', xauthority, 'add', `:${number}`, '.', randomBytes(16).toString('hex')], {
      stdio: 'ignore',
    });
    const xvfb = spawn(
      'Xvfb',
      [
        `:${number}`,
        '-screen',
        '0',
        `${options.width}x${options.height}x24`,
        '-nolisten',
        'tcp',
        '-noreset',
        '-auth',
        xauthority,
      ],
      { stdio: 'ignore' },
    );
    const env = { ...process.env, DISPLAY: `:${number}`, XAUTHORITY: xauthority };
    // The socket exists a moment before the server answers: ready once a client gets in.
    const started = Date.now();
    let ready = false;
    while (!ready && xvfb.exitCode === null && Date.now() - started < 10_000) {
      await sleep(100);
      if (!fs.existsSync(`/tmp/.X11-unix/X${number}`)) continue;
      ready = await new Promise<boolean>((resolve) =>
        execFile('xsetroot', options.colour ? ['-solid', options.colour] : ['-def'], { env }, (error) =>
          resolve(!error),
        ),
      );
    }
    if (!ready) {
      xvfb.kill('SIGKILL');
      continue;
    }
    return {
      display: `:${number}`,
      xauthority,
      env,
      stop() {
        xvfb.kill('SIGKILL');
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw new Error('no free X display for the test');
}

/** Waits until something accepts TCP connections on 127.0.0.1:port, or the child exits, or 15 s. */
export async function waitForPort(port: number, child: ChildProcess, what: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (child.exitCode !== null || Date.now() - started > 15_000) throw new Error(`${what} did not start`);
    await sleep(100);
  }
}

/**
 * The colour of a picture as [r, g, b], averaged over a block left of and above its centre (away
 * from the pointer, which Xvfb starts in the middle): one frame of a video file (at `at` seconds,
 * default its first) or of a live X display (`x11:` + display, with that display's environment).
 */
export function samplePixel(
  source: string,
  options: { at?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<[number, number, number]> {
  const input = source.startsWith('x11:') ? ['-f', 'x11grab', '-i', source.slice(4)] : ['-i', source];
  const seek = options.at !== undefined ? ['-ss', String(options.at)] : [];
  const args = [
    ['-v', 'error', ...seek, ...input, '-frames:v', '1'],
    ['-vf', 'crop=iw/4:ih/4:iw/8:ih/8,scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ].flat();
  return new Promise((resolve, reject) => {
    execFile(
      'ffmpeg',
      args,
      { encoding: 'buffer', env: options.env ?? process.env, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (stdout.length >= 3) resolve([stdout[0]!, stdout[1]!, stdout[2]!]);
        else reject(new Error(`ffmpeg read no frame of ${source}: ${error?.message ?? ''} ${stderr.toString()}`));
      },
    );
  });
}

/** Whether [r, g, b] is within `tolerance` of a '#rrggbb' colour on every channel (H.264 shifts colours a little). */
export function near(rgb: [number, number, number], colour: string, tolerance = 24): boolean {
  const want = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
  return rgb.every((v, i) => Math.abs(v - want[i]!) <= tolerance);
}

/**
 * An X selection's text as `target` (xclip's default, UTF8_STRING, when not given); '' when nobody
 * owns it, the owner refuses, or it does not answer in 5 s. Never execFileSync: the gateway's
 * clipboard relay (clipboard-relay.ts) runs in the test's own process, and a synchronous read would
 * block it from answering (directly, or through FreeRDP and an xrdp session).
 */
export async function readSelection(
  env: NodeJS.ProcessEnv,
  which: 'clipboard' | 'primary',
  target?: string,
): Promise<string> {
  const args = ['-o', '-selection', which, ...(target ? ['-t', target] : [])];
  const read = await promisify(execFile)('xclip', args, { env, timeout: 5000 }).catch(() => ({ stdout: '' }));
  return read.stdout;
}

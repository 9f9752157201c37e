import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { ClipboardRelay, type RelayDirections } from './clipboard-relay.js';
import { releaseSegmentsOf } from './shared-memory.js';
import { countTopLevelWindows, focusLargestWindow, largestWindowSize, resizeLargestWindow } from './x11-probe.js';

/** What a user reads when the desktop programs are missing on the server. */
export const DESKTOP_PACKAGES_MESSAGE =
  'Browser desktops need Xvfb, xfreerdp, x11vnc and xauth on the server: apt-get install xvfb freerdp2-x11 x11vnc xauth';
/** What a user reads when ffmpeg (the desktop's recorder) is missing on the server. */
export const DESKTOP_FFMPEG_MESSAGE =
  'Browser desktops are recorded with ffmpeg, which is missing on the server: apt-get install ffmpeg';

/** The programs a desktop runs; each a name found on PATH or an absolute path. */
export interface DesktopPrograms {
  xvfb: string;
  xfreerdp: string;
  x11vnc: string;
  xauth: string;
  ffmpeg: string;
}

export const DEFAULT_PROGRAMS: DesktopPrograms = {
  xvfb: 'Xvfb',
  xfreerdp: 'xfreerdp',
  x11vnc: 'x11vnc',
  xauth: 'xauth',
  ffmpeg: 'ffmpeg',
};

/** The desktop cannot run on this server (a program is missing): close 4503. */
export class DesktopUnavailable extends Error {}
/** The RDP host could not be reached or refused the login: close 4502. */
export class DesktopUnreachable extends Error {}

/** The part of a logger a desktop uses (never given credentials). */
export interface DesktopLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  debug(object: object, message: string): void;
}

/** How long the RDP connection and login may take before the desktop gives up. */
const CONNECT_TIMEOUT_MS = 30_000;
/** A FreeRDP that exits this soon after its window appeared failed its login (shown as 4502). */
const SETTLE_MS = 1000;
/** After 'q', how long ffmpeg may take to write its last fragment before SIGINT, then SIGKILL. */
const QUIT_WAIT_MS = 5000;
/** How long a program may take to exit after SIGTERM before SIGKILL. */
const KILL_WAIT_MS = 3000;
/**
 * The X screen of a desktop: 2560x1600, or the initial size when larger (at most DESKTOP_CANVAS_MAX).
 * The desktop lives in its top-left part, resized within it (x11vnc shows only the desktop's part,
 * -clip). An idle X screen costs little (Xvfb's memory); what costs is filming it, so ffmpeg films
 * only the part the desktop can take (desktopCanvas), which covers it whatever its size without
 * restarting ffmpeg.
 */
export const DESKTOP_CANVAS = { width: 2560, height: 1600 } as const;
/** The largest X screen a desktop gets, whatever the browser says. */
export const DESKTOP_CANVAS_MAX = { width: 3840, height: 2160 } as const;

const evenSide = (value: number, max: number) => Math.min(max, (Math.max(value, 2) + 1) & ~1);

/** The X screen of a desktop that starts at `size`. */
export function desktopScreen(size: { width: number; height: number }): { width: number; height: number } {
  return {
    width: evenSide(Math.max(size.width, DESKTOP_CANVAS.width), DESKTOP_CANVAS_MAX.width),
    height: evenSide(Math.max(size.height, DESKTOP_CANVAS.height), DESKTOP_CANVAS_MAX.height),
  };
}

/**
 * The part of the X screen that is filmed, and that resizing stays within, for a desktop that starts
 * at `size` in a browser whose screen is `screen` (when it said), on a host whose window came out
 * `shown`: as large as the browser's screen, since its area cannot grow past it (the film's cost
 * follows this area: a 1440x900 screen costs a third of 2560x1600), never smaller than the first
 * size or the host's picture, within the X screen (the whole X screen when the browser did not say).
 * Even sizes, as the video encoder needs.
 */
export function desktopCanvas(
  size: { width: number; height: number },
  screen?: { width: number; height: number },
  shown?: { width: number; height: number },
): { width: number; height: number } {
  const whole = desktopScreen(size);
  if (!screen) return whole;
  return {
    width: evenSide(Math.max(size.width, screen.width, shown?.width ?? 0), whole.width),
    height: evenSide(Math.max(size.height, screen.height, shown?.height ?? 0), whole.height),
  };
}
/** The smallest size a resize asks for. */
export const DESKTOP_RESIZE_MIN = { width: 640, height: 480 } as const;
/** At most one resize this often; a later request while one waits replaces it. */
export const RESIZE_INTERVAL_MS = 1000;
/** RDP connections FreeRDP may open through the agent in one desktop (reconnects included). */
const MAX_RDP_STREAMS = 4;

/** Whether an executable is on PATH (or, given a path, exists and is executable). */
export function findProgram(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  const candidates = name.includes('/')
    ? [name]
    : envPath
        .split(':')
        .filter(Boolean)
        .map((d) => path.join(d, name));
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The problem with the server's programs for desktops, in words a user can act on; undefined when all are there. */
export function desktopSupportProblem(programs: DesktopPrograms = DEFAULT_PROGRAMS): string | undefined {
  if ([programs.xvfb, programs.xfreerdp, programs.x11vnc, programs.xauth].some((p) => !findProgram(p)))
    return DESKTOP_PACKAGES_MESSAGE;
  if (!findProgram(programs.ffmpeg)) return DESKTOP_FFMPEG_MESSAGE;
  return undefined;
}

/**
 * FreeRDP's last words, safe to show a user: the logging prefix goes, the credentials (should
 * FreeRDP ever echo one) are blotted out, control characters removed, at most 160 characters.
 */
export function sanitizeDetail(stderr: string, secrets: string[]): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.replace(/^.*?\]\s*-\s*/, '').trim())
    .filter((l) => l && !/^\d+: /.test(l) && !/Caught signal|backtrace|Password:|Username:|Domain:/i.test(l));
  let line = lines.at(-1) ?? '';
  for (const secret of secrets) if (secret.length >= 3) line = line.split(secret).join('…');
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 160);
}

/** FreeRDP 2's exit codes (client/X11/xf_client.h) that a user can act on. */
const EXIT_WORDS: Record<number, string> = {
  131: 'The remote desktop could not be reached through the host’s agent.',
  132: 'The remote desktop refused the login: check the username, password and domain.',
  133: 'The remote desktop and the gateway found no security protocol in common.',
  134: 'The remote desktop refused the login: check the username, password and domain.',
  135: 'The account is locked out on the remote desktop.',
  141: 'The remote desktop could not be reached through the host’s agent.',
  143: 'The TLS connection to the remote desktop failed.',
  147: 'The remote desktop could not be reached through the host’s agent.',
  148: 'The password has expired on the remote desktop: change it there first.',
  7: 'The remote desktop refused the connection.',
  9: 'The account may not log in to the remote desktop.',
};

/** Why FreeRDP ended, in words. */
export function exitWords(code: number | null, detail: string): string {
  const known = code === null ? undefined : EXIT_WORDS[code];
  if (known) return known;
  const suffix = detail ? `: ${detail}` : '';
  return `The remote desktop connection failed (FreeRDP exit ${code ?? 'signal'})${suffix}`;
}

/** What the user typed for the remote desktop's own login (the hello refuses control characters). */
export interface DesktopCredentials {
  username: string;
  password: string;
  domain?: string | undefined;
}

/**
 * An RDP connection file (FreeRDP reads `name:s:value` lines) with the login's username and
 * domain, and the connection type FreeRDP uses without a file. A value that could start another line is refused here too, whatever the caller checked.
 */
export function connectionFileText(credentials: DesktopCredentials): string {
  const lines: string[] = [];
  for (const [key, value] of [
    ['username', credentials.username],
    ['domain', credentials.domain],
  ] as const) {
    if (value === undefined || value === '') continue;
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new DesktopUnreachable(`The ${key} cannot hold control characters.`);
    lines.push(`${key}:s:${value}`);
  }
  // A connection file without a connection type makes FreeRDP 2 autodetect the network, which
  // turns on its lossy codecs (GFX, RemoteFX, H.264): the same LAN type as without a file instead.
  lines.push('connection type:i:6');
  return `${lines.join('\r\n')}\r\n`;
}

export interface Child {
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

/**
 * Starts one of a desktop's programs. One that dies by a signal (killed after not stopping in
 * time, or crashed) has its shared memory released once it exited (shared-memory.ts).
 */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, extraFds = 0): Child {
  const stdio: ('pipe' | 'ignore')[] = ['pipe', 'ignore', 'pipe'];
  for (let i = 0; i < extraFds; i += 1) stdio.push('pipe');
  const child = spawn(command, args, { env, stdio });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', () => resolve({ code: 127, signal: null }));
    child.once('exit', (code, signal) => {
      // Released before it is answered: a stop that waits for it leaves nothing behind.
      if (signal !== null && child.pid !== undefined) releaseSegmentsOf(child.pid);
      resolve({ code, signal });
    });
  });
  return { process: child, exited, stderr: () => stderr };
}

function alive(child: Child | undefined): boolean {
  return !!child && child.process.exitCode === null && child.process.signalCode === null;
}

async function stopChild(child: Child | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || !alive(child)) return;
  child.process.kill(signal);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), KILL_WAIT_MS);
  await child.exited;
  clearTimeout(timer);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitForFile(file: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(file)) return;
    if (!alive(child)) throw new Error(`exited before ${path.basename(file)} appeared: ${child.stderr().trim()}`);
    await sleep(50);
  }
  throw new Error(`${path.basename(file)} did not appear in ${timeoutMs} ms`);
}

/** How long a desktop's RFB server has to answer a new connection with its protocol version. */
const RFB_ANSWER_MS = 10_000;

/**
 * A connection to an x11vnc unix socket that has answered: RFB servers speak first (the 12-byte
 * protocol version), so a connection is handed on only once its first bytes arrived, and those
 * bytes are put back to be read again. A connection refused or closed before any byte is tried
 * again until `timeoutMs`: x11vnc 0.9.16 binds its socket before it listens (a connect in between
 * is refused), and its accept_unix() passes accept() an address length it never set, so the
 * kernel can drop a connection it has just accepted (the peer sees it closed with no byte).
 * The socket answered is paused: its reader resumes it.
 */
export async function connectRfb(file: string, timeoutMs = RFB_ANSWER_MS): Promise<net.Socket> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await new Promise<net.Socket | string>((resolve) => {
      const socket = net.connect(file);
      // Kept after the answer: an error before the reader takes the socket over is not thrown.
      socket.on('error', () => undefined);
      const done = (result: net.Socket | string) => {
        clearTimeout(timer);
        socket.off('error', failed).off('close', closed).off('data', answered);
        resolve(result);
      };
      const failed = (error: NodeJS.ErrnoException) => {
        socket.destroy();
        done(error.code ?? error.message);
      };
      const closed = () => done('closed before answering');
      const answered = (first: Buffer) => {
        socket.pause();
        socket.unshift(first);
        done(socket);
      };
      const timer = setTimeout(
        () => {
          socket.destroy();
          done('no answer');
        },
        Math.max(0, deadline - Date.now()),
      );
      socket.once('error', failed).once('close', closed).once('data', answered);
    });
    if (typeof outcome !== 'string') return outcome;
    const wait = Math.min(50 * attempt, 500);
    if (Date.now() + wait >= deadline)
      throw new Error(`the desktop server did not answer in ${timeoutMs} ms (${attempt} tries, the last ${outcome})`);
    await sleep(wait);
  }
}

/** The browser desktop's clipboard policy (the rdp definition's rdp_clipboard). */
export type DesktopClipboard = 'both' | 'to-desktop' | 'from-desktop' | 'off';

/**
 * x11vnc's selection options, whatever the policy (x11vnc -help): it exchanges no clipboard at
 * all. RFB's cut text is Latin-1 only, so the browser's clipboard travels in UTF-8 outside RFB, in
 * text frames of the desktop's socket, to the clipboard relay (clipboard-relay.ts), which owns and
 * reads FreeRDP's CLIPBOARD. -nosel exchanges nothing (CLIPBOARD, PRIMARY and the cut buffer);
 * -noprimary/-nosetprimary/-noclipboard/-nosetclipboard close each way again, and -input KMB takes
 * keys, mouse and buttons but no clipboard input (a viewer's cut text is dropped).
 */
export const VNC_NO_CLIPBOARD_ARGS = [
  '-nosel',
  '-noprimary',
  '-nosetprimary',
  '-noclipboard',
  '-nosetclipboard',
  '-input',
  'KMB',
] as const;

/** The ways the clipboard relay carries text for a policy (none when off). */
export function relayDirections(clipboard: DesktopClipboard): RelayDirections {
  return {
    toDesktop: clipboard === 'both' || clipboard === 'to-desktop',
    fromDesktop: clipboard === 'both' || clipboard === 'from-desktop',
  };
}

/** What a desktop needs to start. */
export interface DesktopOptions {
  width: number;
  height: number;
  /**
   * The browser's screen, the largest its desktop area can become: the film covers that much of the
   * X screen instead of all of it (desktopCanvas).
   */
  screen?: { width: number; height: number } | undefined;
  /**
   * The definition's clipboard policy (default 'both'): 'off' starts FreeRDP without its clipboard
   * channel and no clipboard relay; one direction lets the relay carry only that one.
   */
  clipboard?: DesktopClipboard | undefined;
  /** Given to FreeRDP on its stdin only; never in its arguments, environment or any log. */
  credentials: DesktopCredentials;
  /** Opens a byte stream to the RDP host (through the host's agent). */
  connect: () => Promise<Duplex>;
  /** The host's recording settings and where ffmpeg's fragmented MP4 goes; none: no video. */
  video?: { fps: number; scale: number; bitrate: string; sink: (chunk: Buffer) => void } | undefined;
  log: DesktopLog;
  programs?: DesktopPrograms;
  connectTimeoutMs?: number;
}

/** Why a desktop ended on its own (FreeRDP, the X server or x11vnc exited). */
export interface DesktopEnd {
  /** FreeRDP's exit code, when it was FreeRDP that ended. */
  code: number | null;
  message: string;
  /** FreeRDP failed just after it connected (a login refused after the connection, such as by PAM): shown as 4502. */
  failed?: boolean;
}

/** FreeRDP failing this soon after its window appeared counts as a failed connection (4502), not a session end. */
const EARLY_FAILURE_MS = 10_000;
/** FreeRDP's exit codes of a session that ended normally (disconnect, logoff, by the user). */
const NORMAL_EXITS = new Set([0, 1, 2, 11, 12]);
/** FreeRDP's exit codes of a lost transport. */
const TRANSPORT_EXITS = new Set([131, 141, 147]);

/**
 * One gateway desktop: a private X display (Xvfb with an X cookie), FreeRDP in it connected to
 * the host through the agent (via a unix socket in the desktop's 0700 folder, so no local user
 * reaches the host through it), x11vnc serving that display as RFB on unix sockets in the same
 * folder, and ffmpeg filming it. Events: 'ended' (DesktopEnd) when FreeRDP or the display ends;
 * 'resized' ({width, height}) when a resize() was applied.
 */
export class DesktopSession extends EventEmitter {
  private xvfb: Child | undefined;
  private xfreerdp: Child | undefined;
  private x11vnc: Child | undefined;
  private relay: ClipboardRelay | undefined;
  private viewer: Child | undefined;
  private viewerStarting: Promise<void> | undefined;
  private ffmpeg: Child | undefined;
  private rdpServer: net.Server | undefined;
  private readonly streams = new Set<Duplex>();
  private stopping: Promise<void> | undefined;
  private streamError: string | undefined;
  private display = 0;
  private cookie = Buffer.alloc(0);
  /** The desktop's size now (it changes with resize()), within the filmed part of the screen (canvas). */
  private size: { width: number; height: number };
  /** The X screen. */
  private readonly xScreen: { width: number; height: number };
  /** The part of the X screen that is filmed and that the desktop stays within (desktopCanvas). */
  private canvas: { width: number; height: number };
  private resizing: Promise<void> = Promise.resolve();
  private pendingSize: { width: number; height: number } | undefined;
  /** The host kept its own resolution instead of the asked one: resizing is left to the browser's scaling. */
  private fixedSize = false;
  private lastResize = 0;
  private readonly dir: string;
  private readonly programs: DesktopPrograms;

  private constructor(
    private readonly options: DesktopOptions,
    dir: string,
  ) {
    super();
    this.dir = dir;
    this.programs = options.programs ?? DEFAULT_PROGRAMS;
    this.size = { width: options.width, height: options.height };
    this.xScreen = desktopScreen(options);
    this.canvas = desktopCanvas(options, options.screen);
  }

  /** The clipboard policy the desktop enforces. */
  get clipboard(): DesktopClipboard {
    return this.options.clipboard ?? 'both';
  }

  get width(): number {
    return this.size.width;
  }

  get height(): number {
    return this.size.height;
  }

  /** The filmed part of the X screen (the video's size before recording_scale). */
  get screen(): { width: number; height: number } {
    return { ...this.canvas };
  }

  /**
   * Asks for a new desktop size (the browser's area changed): bounded to 640x480 .. the screen,
   * at most one every RESIZE_INTERVAL_MS (a request meanwhile replaces the waiting one). FreeRDP's
   * window takes the size (with /dynamic-resolution FreeRDP asks the host to follow; a host that
   * cannot, such as freerdp-shadow, keeps its resolution inside it), then x11vnc shows that part
   * of the screen and tells the browser the new size (RFB DesktopSize). Answers once applied. A
   * host that kept its own size when the desktop opened is not resized.
   */
  resize(width: number, height: number): Promise<void> {
    // A host that did not take the first size would not take this one: FreeRDP's window would
    // crop its picture or add black around it. The browser scales the whole picture instead.
    if (this.fixedSize) return this.resizing;
    const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));
    this.pendingSize = {
      width: clamp(width, DESKTOP_RESIZE_MIN.width, this.canvas.width),
      height: clamp(height, DESKTOP_RESIZE_MIN.height, this.canvas.height),
    };
    this.resizing = this.resizing.then(async () => {
      const wait = this.lastResize + RESIZE_INTERVAL_MS - Date.now();
      if (wait > 0) await sleep(wait);
      const next = this.pendingSize;
      this.pendingSize = undefined;
      if (!next || this.stopping) return;
      if (next.width === this.size.width && next.height === this.size.height) return;
      this.lastResize = Date.now();
      try {
        await resizeLargestWindow(this.display, this.cookie, next.width, next.height);
        this.size = next;
        // The user's x11vnc and, when watched, the watchers' one show the new part of the screen.
        const servers = [false, ...(alive(this.viewer) ? [true] : [])];
        await Promise.all(servers.map((viewOnly) => this.sendClip(viewOnly)));
        this.options.log.debug({ width: next.width, height: next.height }, 'desktop resized');
        this.emit('resized', { ...next });
      } catch (error) {
        this.options.log.warn({ err: error }, 'desktop not resized');
      }
    });
    return this.resizing;
  }

  /** The X display number (for tests and measurements). */
  get displayNumber(): number {
    return this.display;
  }

  /** The process ids of the desktop's programs now running (for tests and measurements). */
  pids(): number[] {
    return [this.xvfb, this.xfreerdp, this.x11vnc, this.viewer, this.ffmpeg]
      .filter((c): c is Child => alive(c))
      .map((c) => c.process.pid!)
      .filter(Boolean);
  }

  private get xauthority(): string {
    return path.join(this.dir, 'Xauthority');
  }

  private env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      HOME: this.dir,
      DISPLAY: `:${this.display}`,
      XAUTHORITY: this.xauthority,
    };
  }

  /**
   * Starts the desktop and connects it; settles once FreeRDP shows the remote desktop. Throws
   * DesktopUnavailable (programs missing) or DesktopUnreachable (host unreachable, login refused).
   */
  static async start(options: DesktopOptions): Promise<DesktopSession> {
    const programs = options.programs ?? DEFAULT_PROGRAMS;
    const problem = desktopSupportProblem(programs);
    if (problem) throw new DesktopUnavailable(problem);
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'gh-desktop-'));
    await fsp.chmod(dir, 0o700);
    const desktop = new DesktopSession(options, dir);
    try {
      await desktop.startDisplay();
      await desktop.startRdpSocket();
      await desktop.startFreeRdp();
      desktop.startVideo();
      await desktop.startRelay();
      await desktop.startVnc();
    } catch (error) {
      await desktop.stop();
      throw error;
    }
    desktop.watchEnds();
    return desktop;
  }

  /** Xvfb on a free display from a random start in 200..999, readable only with the desktop's cookie. */
  private async startDisplay(): Promise<void> {
    const cookieHex = randomBytes(16).toString('hex');
    this.cookie = Buffer.from(cookieHex, 'hex');
    for (let attempt = 0; attempt < 25; attempt += 1) {
      const n = randomInt(200, 1000);
      if (fs.existsSync(`/tmp/.X11-unix/X${n}`) || fs.existsSync(`/tmp/.X${n}-lock`)) continue;
      const xauth = run(this.programs.xauth, ['-f', this.xauthority, 'add', `:${n}`, '.', cookieHex], {
        PATH: process.env.PATH,
        HOME: this.dir,
      });
      const added = await xauth.exited;
      if (added.code !== 0) throw new DesktopUnavailable(`xauth failed: ${xauth.stderr().trim().slice(0, 160)}`);
      this.display = n;
      const xvfb = run(
        this.programs.xvfb,
        [
          `:${n}`,
          '-screen',
          '0',
          `${this.xScreen.width}x${this.xScreen.height}x24`,
          '-nolisten',
          'tcp',
          '-auth',
          this.xauthority,
          '-noreset',
          '-displayfd',
          '3',
        ],
        this.env(),
        1,
      );
      // Xvfb writes its display number on fd 3 once it answers connections.
      const ready = await new Promise<boolean>((resolve) => {
        const fd3 = xvfb.process.stdio[3] as NodeJS.ReadableStream | null;
        fd3?.once('data', () => resolve(true));
        void xvfb.exited.then(() => resolve(false));
        setTimeout(() => resolve(false), 10_000).unref();
      });
      if (ready && alive(xvfb)) {
        this.xvfb = xvfb;
        return;
      }
      await stopChild(xvfb, 'SIGKILL');
      if (!/already active|Cannot establish any listening sockets|lock/i.test(xvfb.stderr()))
        throw new DesktopUnavailable(`Xvfb did not start: ${xvfb.stderr().trim().split('\n').at(-1) ?? ''}`);
    }
    throw new DesktopUnavailable('No free X display was found for the desktop; try again.');
  }

  /** FreeRDP dials this unix socket (in the 0700 folder); each connection becomes a stream through the agent. */
  private async startRdpSocket(): Promise<void> {
    let opened = 0;
    const server = net.createServer((local) => {
      opened += 1;
      local.on('error', () => undefined);
      if (opened > MAX_RDP_STREAMS || this.stopping) return local.destroy();
      local.pause();
      this.options
        .connect()
        .then((remote) => {
          if (this.stopping) {
            remote.destroy();
            local.destroy();
            return;
          }
          this.streams.add(remote);
          remote.on('error', () => undefined);
          remote.once('close', () => {
            this.streams.delete(remote);
            local.destroy();
          });
          local.once('close', () => remote.destroy());
          local.pipe(remote);
          remote.pipe(local);
          local.resume();
        })
        .catch((error: unknown) => {
          this.streamError = (error as Error).message;
          local.destroy();
        });
    });
    this.rdpServer = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path.join(this.dir, 'rdp.sock'), () => resolve());
    });
  }

  private async startFreeRdp(): Promise<void> {
    const { credentials } = this.options;
    // FreeRDP 2 reads only the password from stdin before it connects (/from-stdin:force); the
    // username and domain it asks for later only during NLA. So a host without NLA (xrdp) got the
    // username as the password, no auto-logon, and showed its own login screen; an NLA host got the
    // next lines as username and domain. The username and domain go in a connection file in the
    // desktop's private folder (never in the arguments, which every local user can read), read at
    // start and removed once FreeRDP is connected; the password alone goes on stdin.
    const connectionFile = path.join(this.dir, 'connection.rdp');
    fs.writeFileSync(connectionFile, connectionFileText(credentials), { mode: 0o600 });
    const xfreerdp = run(
      this.programs.xfreerdp,
      [
        connectionFile,
        `/v:${path.join(this.dir, 'rdp.sock')}`,
        '/from-stdin:force',
        '/cert:ignore',
        `/size:${this.width}x${this.height}`,
        '/bpp:24',
        // Its window resized (resize()), FreeRDP asks the host for that resolution (RDP display control).
        '/dynamic-resolution',
        // FreeRDP 2 has no one-way clipboard: a one-way policy is held by the relay (startRelay).
        ...(this.clipboard === 'off' ? ['-clipboard'] : ['+clipboard']),
        '-grab-keyboard',
        '-decorations',
        '/log-level:WARN',
      ],
      this.env(),
    );
    this.xfreerdp = xfreerdp;
    xfreerdp.process.stdin?.end(`${credentials.password}\n`);
    try {
      await this.awaitFreeRdpWindow(xfreerdp, credentials);
    } finally {
      fs.rmSync(connectionFile, { force: true });
    }
  }

  /** Waits for FreeRDP's window (the login accepted), then reads the size the host keeps. */
  private async awaitFreeRdpWindow(xfreerdp: Child, credentials: DesktopCredentials): Promise<void> {
    const secrets = [credentials.password, credentials.username, credentials.domain ?? ''];
    const failed = async (): Promise<never> => {
      const { code } = await xfreerdp.exited;
      if (this.streamError) throw new DesktopUnreachable(this.streamError);
      throw new DesktopUnreachable(exitWords(code, sanitizeDetail(xfreerdp.stderr(), secrets)));
    };
    const deadline = Date.now() + (this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    // FreeRDP creates its window once the connection is up and the login accepted.
    for (;;) {
      if (!alive(xfreerdp)) return failed();
      if (Date.now() > deadline) {
        await stopChild(xfreerdp);
        throw new DesktopUnreachable(
          this.streamError ?? 'The remote desktop did not answer in time: is the host’s RDP service running?',
        );
      }
      const windows = await countTopLevelWindows(this.display, this.cookie).catch(() => 0);
      if (windows > 0) break;
      await sleep(150);
    }
    await sleep(SETTLE_MS);
    if (!alive(xfreerdp)) return failed();
    // The keyboard goes to FreeRDP's window whatever the pointer does (x11-probe.ts, focus).
    await focusLargestWindow(this.display, this.cookie).catch((error: unknown) =>
      this.options.log.warn({ err: error }, 'the desktop window was not given the keyboard'),
    );
    // A host that keeps its own resolution (it did not take /size) makes FreeRDP's window that
    // size: the desktop is what the window shows, or the browser would see a part of it (or black
    // around it). The browser scales it to its area.
    // Such a host will not follow a resize either: resize() then keeps the host's picture whole.
    const shown = await largestWindowSize(this.display, this.cookie).catch(() => undefined);
    if (shown && shown.width > 0 && shown.height > 0 && (shown.width !== this.width || shown.height !== this.height)) {
      this.fixedSize = true;
      const asked = `${this.width}x${this.height}`;
      this.canvas = desktopCanvas(this.options, this.options.screen, shown);
      this.size = {
        width: Math.min(shown.width, this.canvas.width),
        height: Math.min(shown.height, this.canvas.height),
      };
      this.options.log.debug({ asked, ...this.size }, 'the RDP host keeps its own size');
    }
  }

  /** ffmpeg films the display from the moment the remote desktop shows (fragmented MP4 to the sink). */
  private startVideo(): void {
    const video = this.options.video;
    if (!video) return;
    const kbps = Number.parseInt(video.bitrate, 10) || 1000;
    const fps = String(video.fps);
    const args = [
      ['-hide_banner', '-loglevel', 'warning', '-nostats'],
      // Only the part of the screen the desktop can take (canvas), from the top-left corner.
      ['-probesize', '32', '-analyzeduration', '0', '-f', 'x11grab', '-framerate', fps],
      ['-video_size', `${this.canvas.width}x${this.canvas.height}`, '-i', `:${this.display}+0,0`],
      ['-vf', `scale=trunc(iw*${video.scale}/2)*2:trunc(ih*${video.scale}/2)*2`],
      ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ['-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${kbps * 2}k`, '-g', fps],
      ['-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', 'pipe:1'],
    ].flat();
    const child = spawn(this.programs.ffmpeg, args, { env: this.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    child.stdout.on('data', (c: Buffer) => video.sink(c));
    child.stdin.on('error', () => undefined);
    // 'close': ffmpeg exited and its stdout is drained, so every byte reached the sink.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('error', () => resolve({ code: 127, signal: null }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    this.ffmpeg = { process: child, exited, stderr: () => stderr };
    // A desktop is never left unfilmed: the recorder's end ends the desktop.
    void exited.then(({ code, signal }) => {
      if (this.stopping) return;
      this.options.log.warn({ code, signal, detail: stderr.trim().split('\n').at(-1) }, 'desktop video ended early');
      this.emit('ended', {
        code: null,
        message: 'The desktop’s recording stopped, so the desktop was closed: open it again.',
      } satisfies DesktopEnd);
    });
  }

  /**
   * The clipboard relay on FreeRDP's CLIPBOARD (none when the clipboard is off): the host's copies
   * are emitted as 'clipboard' (only when the policy lets text out), paste() offers the browser's.
   */
  private async startRelay(): Promise<void> {
    if (this.clipboard === 'off') return;
    const warn = (message: string) => this.options.log.warn({}, message);
    const copied = (text: string) => {
      if (!this.stopping) this.emit('clipboard', text);
    };
    this.relay = await ClipboardRelay.start(
      this.display,
      this.cookie,
      relayDirections(this.clipboard),
      warn,
      copied,
    ).catch((error: Error) => {
      warn(`the desktop's clipboard relay did not start, so its clipboard does not work: ${error.message}`);
      return undefined;
    });
  }

  private vncArgs(socket: string, viewOnly: boolean): string[] {
    return [
      ['-display', `:${this.display}`, '-auth', this.xauthority, '-unixsock', socket],
      // Only the desktop's part of the screen (resize() moves it with x11vnc -R clip:...).
      ['-clip', `${this.width}x${this.height}+0+0`],
      // No TCP listener at all (IPv4 or IPv6): only the unix socket in the 0700 folder.
      ['-rfbport', '0', '-rfbportv6', '-1', '-no6', '-noipv6'],
      ['-nopw', '-shared', '-forever', '-noxdamage', '-quiet'],
      // No clipboard through RFB, for the user (clipboard-relay.ts carries it) or watchers (none).
      [...(viewOnly ? ['-viewonly'] : []), ...VNC_NO_CLIPBOARD_ARGS],
    ].flat();
  }

  /** x11vnc's environment. */
  private vncEnv(viewOnly: boolean): NodeJS.ProcessEnv {
    return {
      ...this.env(),
      // Each x11vnc reads its remote-control commands (resize()) from its own root window property:
      // with one shared property only one of them would take a command.
      X11VNC_REMOTE: viewOnly ? 'GH_X11VNC_REMOTE_VIEW' : 'GH_X11VNC_REMOTE_CONTROL',
    };
  }

  private async startVnc(): Promise<void> {
    const socket = path.join(this.dir, 'vnc.sock');
    this.x11vnc = run(this.programs.x11vnc, this.vncArgs(socket, false), this.vncEnv(false));
    await waitForFile(socket, this.x11vnc, 10_000).catch((error: Error) => {
      throw new DesktopUnavailable(`x11vnc did not start: ${error.message.slice(0, 160)}`);
    });
    this.resendClipLater(false, { ...this.size });
  }

  /**
   * The browser's text becomes the desktop's clipboard (the relay owns FreeRDP's CLIPBOARD with
   * it). Answers false, changing nothing, when the policy lets no text into the desktop, the relay
   * is not running or the text is too long.
   */
  paste(text: string): boolean {
    if (this.stopping || !relayDirections(this.clipboard).toDesktop) return false;
    return this.relay?.offer(text) ?? false;
  }

  /** Ends the desktop by itself when FreeRDP (the user logged off), the display or x11vnc ends. */
  private watchEnds(): void {
    const secrets = [this.options.credentials.password, this.options.credentials.username];
    const readyAt = Date.now();
    void this.xfreerdp?.exited.then(({ code }) => {
      if (this.stopping) return;
      const detail = sanitizeDetail(this.xfreerdp?.stderr() ?? '', secrets);
      const normal = code !== null && NORMAL_EXITS.has(code);
      const early = !normal && Date.now() - readyAt < EARLY_FAILURE_MS;
      const message = normal
        ? 'The remote desktop session ended.'
        : early && code !== null && TRANSPORT_EXITS.has(code)
          ? 'The remote desktop closed the connection as it opened: was the login refused? Check the username and password.'
          : exitWords(code, detail);
      this.emit('ended', { code, message, failed: early } satisfies DesktopEnd);
    });
    for (const [child, name] of [
      [this.xvfb, 'X display'],
      [this.x11vnc, 'desktop server'],
    ] as const) {
      void child?.exited.then(() => {
        if (!this.stopping) this.emit('ended', { code: null, message: `The gateway’s ${name} ended.` });
      });
    }
  }

  /** A connection to the desktop's RFB server (keyboard and mouse reach the desktop), once it answered. */
  openControl(): Promise<net.Socket> {
    return connectRfb(path.join(this.dir, 'vnc.sock'));
  }

  /**
   * A new x11vnc watches for remote commands only once its loop runs: a resize in its first moments
   * can be missed, so the current size is sent again a little later if it changed since the start.
   */
  private resendClipLater(viewOnly: boolean, started: { width: number; height: number }): void {
    for (const delay of [2000, 5000])
      setTimeout(() => {
        if (this.stopping || !alive(viewOnly ? this.viewer : this.x11vnc)) return;
        if (this.size.width === started.width && this.size.height === started.height) return;
        void this.sendClip(viewOnly);
      }, delay).unref();
  }

  /**
   * Tells one x11vnc (the user's or the watchers') to show the desktop's current part of the
   * screen, and waits for it to acknowledge (-sync). A busy x11vnc that has not answered within
   * x11vnc's few seconds is asked again, up to three times in all.
   */
  private async sendClip(viewOnly: boolean): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      if (this.stopping || !alive(viewOnly ? this.viewer : this.x11vnc)) return;
      const { width, height } = this.size;
      const clip = run(
        this.programs.x11vnc,
        ['-display', `:${this.display}`, '-auth', this.xauthority, '-sync', '-R', `clip:${width}x${height}+0+0`],
        this.vncEnv(viewOnly),
      );
      const { code } = await clip.exited;
      if (code === 0) return;
      this.options.log.debug({ attempt, code, viewOnly }, 'x11vnc did not acknowledge the new size');
    }
  }

  /** A connection to the view-only RFB server (started on first use): input is never delivered. */
  async openViewer(): Promise<net.Socket> {
    const socket = path.join(this.dir, 'view.sock');
    this.viewerStarting ??= (async () => {
      const started = { ...this.size };
      this.viewer = run(this.programs.x11vnc, this.vncArgs(socket, true), this.vncEnv(true));
      await waitForFile(socket, this.viewer, 10_000);
      this.resendClipLater(true, started);
    })();
    await this.viewerStarting;
    return connectRfb(socket);
  }

  /**
   * Ends everything: ffmpeg first ('q', so its last fragment is written while the display still
   * exists), then FreeRDP, x11vnc and the display; the folder (cookie, sockets) is removed.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const ffmpeg = this.ffmpeg;
      if (ffmpeg && alive(ffmpeg)) {
        ffmpeg.process.stdin?.end('q');
        const interrupt = setTimeout(() => ffmpeg.process.kill('SIGINT'), QUIT_WAIT_MS);
        const kill = setTimeout(() => ffmpeg.process.kill('SIGKILL'), QUIT_WAIT_MS + KILL_WAIT_MS);
        await ffmpeg.exited;
        clearTimeout(interrupt);
        clearTimeout(kill);
      } else if (ffmpeg) {
        await ffmpeg.exited;
      }
      for (const stream of this.streams) stream.destroy();
      this.relay?.close();
      await Promise.all([stopChild(this.xfreerdp), stopChild(this.x11vnc), stopChild(this.viewer)]);
      await stopChild(this.xvfb);
      this.rdpServer?.close();
      await fsp.rm(this.dir, { recursive: true, force: true });
    })();
    return this.stopping;
  }
}

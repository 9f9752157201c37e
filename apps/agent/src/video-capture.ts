import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { CaptureStatus, RecordVideo } from '@gatehouse/contracts';
import type { Log } from './log.js';
import type { Identity } from './state.js';
import { VideoUploader } from './video-upload.js';
import { type ProcReader, type XrdpSession, lookupSession, procReader, sessionAlive } from './xrdp-session.js';

/** How the agent captures RDP sessions: which screen and which ffmpeg. */
export interface CaptureOptions {
  /**
   * An explicit screen to film for every rdp stream: an X display on Linux (a plain X desktop such
   * as :0 shared by freerdp-shadow), gdigrab's source on Windows. Undefined: on Linux, film the
   * xrdp session of each stream; on Windows, the interactive desktop (not from a service).
   */
  source: string | undefined;
  /** The ffmpeg executable. */
  ffmpeg: string;
  /** How long to wait for a stream's xrdp session display (a login takes seconds); default 120 s. */
  waitMs?: number;
  /** How often to look for the session and check it still lives; default 500 ms. */
  pollMs?: number;
}

/** What a capture reports to the server (without the recording id, which the capture adds). */
export type CaptureReport = Omit<CaptureStatus, 't' | 'recording_id'>;

/** After 'q', how long ffmpeg may take to write its last fragment before SIGINT, then SIGKILL. */
const QUIT_WAIT_MS = 5000;
const INTERRUPT_WAIT_MS = 3000;
/** ffmpeg failing before it wrote any video is started again this many times (1, 2, 4 s apart). */
const FFMPEG_RETRIES = 3;
const DEFAULT_WAIT_MS = 120_000;
const DEFAULT_POLL_MS = 500;

/**
 * ffmpeg's arguments: the desktop at the host's frame rate, scaled to even dimensions, H.264 for
 * low latency, one key frame a second, as fragmented MP4 on stdout: a fragment closes at every key
 * frame (about a second), so the first one reaches the uploader within ~1 s and a cut capture
 * (agent killed) keeps every complete fragment. Undefined where no grabber is known.
 */
export function ffmpegArgs(
  platform: NodeJS.Platform,
  source: string,
  settings: Pick<RecordVideo, 'fps' | 'scale' | 'bitrate'>,
): string[] | undefined {
  const grabber = platform === 'win32' ? 'gdigrab' : platform === 'linux' ? 'x11grab' : undefined;
  if (!grabber) return undefined;
  const kbps = Number.parseInt(settings.bitrate, 10);
  const fps = String(settings.fps);
  return [
    ['-hide_banner', '-loglevel', 'warning', '-nostats'],
    // The grabber states its size and rate: probing the input would only delay the first frame.
    ['-probesize', '32', '-analyzeduration', '0', '-f', grabber, '-framerate', fps, '-i', source],
    ['-vf', `scale=trunc(iw*${settings.scale}/2)*2:trunc(ih*${settings.scale}/2)*2`],
    ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
    ['-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${kbps * 2}k`, '-g', fps, '-keyint_min', fps],
    ['-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-flush_packets', '1', 'pipe:1'],
  ].flat();
}

/**
 * One line of ffmpeg's stderr fit for a status and a log: printable ASCII only, long hex runs
 * (an X cookie, should anything ever print one) masked, at most 300 characters.
 */
export function sanitiseLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines.at(-1) ?? '';
  return last
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/[0-9a-fA-F]{16,}/g, '[hex]')
    .slice(0, 300);
}

/** Whether this Windows process is a service in session 0 (no desktop of a signed-in user). */
export function isWindowsService(env: NodeJS.ProcessEnv): boolean {
  return !env.SESSIONNAME || env.SESSIONNAME.toLowerCase() === 'services' || (env.USERNAME ?? '').endsWith('$');
}

/**
 * Which capture films which display: one capture per session. A second stream that becomes the
 * same xrdp session (a reconnect: xrdp hands the session to the newer connection and drops the
 * older one) takes the display over: the older capture stops (reported 'stopped', saying so) and
 * the newer recording films from then on, so each recording holds what its own connection showed
 * and the display is never filmed twice at once.
 */
export class DisplayClaims {
  private readonly owners = new Map<string, RdpCapture>();

  /** The capture now filming the display; answers the one it took over from, if any. */
  claim(display: string, capture: RdpCapture): RdpCapture | undefined {
    const previous = this.owners.get(display);
    this.owners.set(display, capture);
    return previous === capture ? undefined : previous;
  }

  release(display: string, capture: RdpCapture): void {
    if (this.owners.get(display) === capture) this.owners.delete(display);
  }

  /** Displays being filmed, with their recording ids. */
  filming(): Map<string, string> {
    return new Map([...this.owners].map(([d, c]) => [d, c.recordingId]));
  }
}

/** The ends of the agent's local TCP socket of an rdp stream. */
export interface LocalPorts {
  localPort: number;
  remotePort: number;
}

export interface CaptureInput {
  record: RecordVideo;
  identity: Identity;
  options: CaptureOptions;
  log: Log;
  /** Sends a CaptureStatus to the server (through the connection's WebSocket). */
  send: (status: CaptureStatus) => void;
  /** The stream's local socket (Linux, xrdp): which session it became. */
  local?: LocalPorts;
  claims?: DisplayClaims;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  reader?: ProcReader;
  /** The agent's uid (process.getuid()); per-session filming reads other users' /proc entries. */
  uid?: number;
}

const defaultClaims = new DisplayClaims();

/**
 * The video of one rdp stream: finds what to film (the stream's own xrdp session, or the
 * explicit source), waits for it, runs ffmpeg (retried while it fails before any video), uploads
 * as it records, reports every change as a CaptureStatus, and stops with the stream or the session.
 */
export class RdpCapture {
  readonly recordingId: string;
  private state: CaptureStatus['state'] | undefined;
  private stopping = false;
  /** Pending pauses (the session watch and ffmpeg's retry wait), cut short by stop(). */
  private readonly wakers = new Set<() => void>();
  private child: ChildProcessWithoutNullStreams | undefined;
  private childEnded: Promise<void> | undefined;
  private uploader: VideoUploader | undefined;
  private display: string | undefined;
  private readonly claims: DisplayClaims;
  private readonly platform: NodeJS.Platform;
  private readonly env: NodeJS.ProcessEnv;
  private readonly reader: ProcReader;
  private readonly waitMs: number;
  private readonly pollMs: number;
  private readonly done: Promise<void>;
  private stopPromise: Promise<void> | undefined;
  /** Why the display is no longer ours (taken over, session ended), reported with 'stopped'. */
  private endReason: string | undefined;

  private constructor(private readonly input: CaptureInput) {
    this.recordingId = input.record.recording_id;
    this.claims = input.claims ?? defaultClaims;
    this.platform = input.platform ?? process.platform;
    this.env = input.env ?? process.env;
    this.reader = input.reader ?? procReader();
    this.waitMs = input.options.waitMs ?? DEFAULT_WAIT_MS;
    this.pollMs = input.options.pollMs ?? DEFAULT_POLL_MS;
    this.done = this.run().catch((error: unknown) => {
      this.fail(`the capture broke: ${sanitiseLine((error as Error).message ?? String(error))}`);
    });
    // Ended by itself (session gone, failure, not filmable): upload what there is and report.
    void this.done.then(() => this.stop());
  }

  /** Starts the capture of a recording; it runs until stop() (the stream closed) or the session ends. */
  static start(input: CaptureInput): RdpCapture {
    return new RdpCapture(input);
  }

  /** The last state reported. */
  get current(): CaptureStatus['state'] | undefined {
    return this.state;
  }

  private report(status: CaptureReport): void {
    this.state = status.state;
    const message: CaptureStatus = { t: 'capture', recording_id: this.recordingId, ...status };
    if (message.detail) message.detail = message.detail.slice(0, 500);
    try {
      this.input.send(message);
    } catch {
      // The connection is gone; the server marks the stream's capture when it sees it closed.
    }
  }

  private fail(detail: string): void {
    this.input.log.error(`video of recording ${this.recordingId}: ${detail}`);
    this.report({ state: 'failed', detail, ...(this.display ? { display: this.display } : {}) });
  }

  private unsupported(detail: string): void {
    // An unfilmed session is what an administrator must see at the default level (ERROR).
    this.input.log.error(`video of recording ${this.recordingId}: not filmed: ${detail}`);
    this.report({ state: 'unsupported', detail });
  }

  /** Waits ms, or less when stop() is called. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  private async run(): Promise<void> {
    const { options } = this.input;
    if (this.platform === 'win32') {
      if (options.source) return this.film(options.source, this.env);
      if (isWindowsService(this.env)) {
        return this.unsupported(
          'the agent runs as a Windows service (session 0), which cannot see the desktop of an RDP session; this ' +
            'connection is not filmed and the definition’s policy for unfilmed RDP decides',
        );
      }
      return this.film('desktop', this.env);
    }
    if (this.platform !== 'linux') {
      return this.unsupported(`video capture works on Linux and Windows, not ${this.platform}`);
    }
    // An explicit screen (a plain X desktop shared by the RDP server) overrides the xrdp lookup.
    if (options.source) return this.film(options.source, this.env);
    if (!this.input.local) return this.fail('the stream’s local connection is unknown, so its session cannot be found');
    const uid = this.input.uid ?? process.getuid?.();
    if (uid !== 0) {
      return this.unsupported(
        `filming xrdp sessions needs the agent to run as root (it reads other users’ /proc entries and X ` +
          `authority files); this agent runs as uid ${uid}. Installed with install.sh: run it again with ` +
          `--film-rdp (the service then runs as root with only what filming needs); otherwise run the agent as ` +
          `root, or pass --capture-source for a plain X desktop`,
      );
    }
    const session = await this.waitForSession(this.input.local);
    if (!session || this.stopping) return;
    this.display = session.display;
    this.claims.claim(session.display, this)?.takenOver(session.display, this.recordingId);
    this.input.log.info(
      `recording ${this.recordingId}: xrdp session of ${session.user} on ${session.display} (X server pid ${session.serverPid})`,
    );
    const env: NodeJS.ProcessEnv = { ...this.env, DISPLAY: session.display };
    if (session.xauthority) env.XAUTHORITY = session.xauthority;
    else delete env.XAUTHORITY;
    const watching = this.watch(session);
    await this.film(session.display, env, session);
    this.stopping = true;
    this.wakeAll();
    await watching;
  }

  /** Looks for the stream's session until it exists, the wait ends or the stream closes. */
  private async waitForSession(local: LocalPorts): Promise<XrdpSession | undefined> {
    const started = Date.now();
    let xrdpPid: number | undefined;
    let reported = false;
    while (!this.stopping) {
      let found;
      try {
        found = await lookupSession(this.reader, local, { xrdpPid });
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        this.fail(
          e.code === 'ENOENT'
            ? 'ss (iproute2) was not found: the agent needs it to follow xrdp to its session; install iproute2'
            : `reading the session of this connection failed: ${sanitiseLine(e.message)}`,
        );
        return undefined;
      }
      if (found.kind === 'session') return found.session;
      if (found.kind === 'gone') return undefined;
      if (found.kind === 'not-xrdp') {
        this.unsupported(
          `127.0.0.1:${local.remotePort} is served by ${found.program} (pid ${found.pid}), not xrdp: the agent films ` +
            `xrdp sessions. For an RDP server that shares a plain X desktop (such as freerdp-shadow on :0), ` +
            `start the agent with --capture-source :0`,
        );
        return undefined;
      }
      xrdpPid = found.xrdpPid ?? xrdpPid;
      const why = found.why;
      if (!reported) {
        reported = true;
        this.report({ state: 'waiting', detail: why });
      }
      if (Date.now() - started >= this.waitMs) {
        this.fail(
          `no xrdp session display appeared within ${Math.round(this.waitMs / 1000)} s of the connection (${why}); ` +
            'the login may not have completed',
        );
        return undefined;
      }
      await this.pause(this.pollMs);
    }
    return undefined;
  }

  /** While filming, checks the session lives; ends ffmpeg when it does not. */
  private async watch(session: XrdpSession): Promise<void> {
    while (!this.stopping) {
      await this.pause(Math.max(this.pollMs, 1000));
      if (this.stopping) return;
      if (!(await sessionAlive(this.reader, session).catch(() => true))) {
        this.endReason ??= `the session on ${session.display} ended`;
        this.input.log.info(`recording ${this.recordingId}: ${this.endReason}`);
        this.stopping = true;
        await this.endChild();
        return;
      }
    }
  }

  /** Another connection became this session: this capture stops, that one films. */
  private takenOver(display: string, by: string): void {
    this.endReason = `the session on ${display} was taken over by another connection (recording ${by}), which films it from now on`;
    this.input.log.info(`recording ${this.recordingId}: ${this.endReason}`);
    void this.stop();
  }

  /** Runs ffmpeg on a source, retrying while it fails before any video, until stopped. */
  private async film(source: string, env: NodeJS.ProcessEnv, session?: XrdpSession): Promise<void> {
    const { record, options, log } = this.input;
    const args = ffmpegArgs(this.platform, source, record);
    if (!args) return this.unsupported(`video capture works on Linux and Windows, not ${this.platform}`);
    this.display ??= source;
    let lastLine = '';
    for (let attempt = 0; !this.stopping; attempt += 1) {
      this.uploader ??= new VideoUploader(this.input.identity, this.recordingId, log, () => void this.stop());
      const uploader = this.uploader;
      const before = uploader.stored;
      let wrote = false;
      let stderr = '';
      let missing = false;
      const child = spawn(options.ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, env });
      this.child = child;
      child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
      child.stdout.on('data', (c: Buffer) => {
        if (!wrote) {
          wrote = true;
          this.report({ state: 'filming', display: source });
          log.info(`recording ${this.recordingId}: filming ${source} at ${record.fps} fps`);
        }
        uploader.push(c);
      });
      child.stdin.on('error', () => undefined);
      this.childEnded = new Promise<void>((resolve) => {
        child.once('error', (error: NodeJS.ErrnoException) => {
          missing = error.code === 'ENOENT';
          lastLine = sanitiseLine(error.message);
          resolve();
        });
        // 'close': ffmpeg exited and its stdout is drained, so every byte reached the uploader.
        child.once('close', () => resolve());
      });
      await this.childEnded;
      this.child = undefined;
      if (this.stopping) return;
      lastLine = sanitiseLine(stderr) || lastLine;
      if (missing) {
        return this.fail(
          `ffmpeg was not found (${options.ffmpeg}): this rdp session runs without video. Install ffmpeg or pass --ffmpeg PATH`,
        );
      }
      if (wrote || uploader.stored > before) {
        // A fragmented MP4 cannot take a second beginning: the video so far stays, this capture ends.
        return this.fail(`ffmpeg stopped filming ${source}: ${lastLine || 'no message'}`);
      }
      if (session && !(await sessionAlive(this.reader, session).catch(() => true))) {
        this.endReason ??= `the session on ${session.display} ended`;
        return;
      }
      if (attempt >= FFMPEG_RETRIES) {
        // x11grab's last line on a refused display is only "Input/output error": Xlib's words
        // ("Authorization required …") come on the line before it.
        const hint = /authoriz|cannot open display/i.test(`${stderr}\n${lastLine}`)
          ? session
            ? ` (X authority used: ${session.xauthority ?? 'none found'})`
            : ' (is DISPLAY right, and XAUTHORITY set for the agent?)'
          : '';
        return this.fail(`ffmpeg could not film ${source} after ${attempt + 1} attempts: ${lastLine}${hint}`);
      }
      const delay = 1000 * 2 ** attempt;
      log.warn(
        `video of recording ${this.recordingId}: ffmpeg failed on ${source} (${lastLine}); retrying in ${delay / 1000} s`,
      );
      await this.pause(delay);
    }
  }

  private async endChild(): Promise<void> {
    const child = this.child;
    if (!child || !this.childEnded) return;
    child.stdin.end('q');
    const interrupt = setTimeout(() => child.kill('SIGINT'), QUIT_WAIT_MS);
    const kill = setTimeout(() => child.kill('SIGKILL'), QUIT_WAIT_MS + INTERRUPT_WAIT_MS);
    await this.childEnded;
    clearTimeout(interrupt);
    clearTimeout(kill);
  }

  /**
   * Ends the capture so the last fragment is written ('q' on ffmpeg's stdin, SIGINT when it does
   * not quit in time, SIGKILL last), uploads it and reports 'stopped'. Settles once done.
   */
  stop(): Promise<void> {
    this.stopPromise ??= (async () => {
      this.stopping = true;
      this.wakeAll();
      await this.endChild();
      await this.done;
      if (this.uploader) {
        await this.uploader.finish();
        this.input.log.info(`video of recording ${this.recordingId}: ${this.uploader.stored} bytes uploaded`);
      }
      if (this.display) this.claims.release(this.display, this);
      if (this.state === 'waiting' || this.state === 'filming' || this.state === undefined) {
        this.report({
          state: 'stopped',
          ...(this.display ? { display: this.display } : {}),
          ...(this.endReason ? { detail: this.endReason } : {}),
        });
      }
    })();
    return this.stopPromise;
  }

  /** Settles when the capture ended by itself (session gone, failure) or was stopped. */
  get finished(): Promise<void> {
    return this.done;
  }
}

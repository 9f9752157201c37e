import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { RecordVideo } from '@gatehouse/contracts';
import type { Log } from './log.js';
import type { Identity } from './state.js';
import { VideoUploader } from './video-upload.js';

/** How the agent captures its desktop: which screen and which ffmpeg. */
export interface CaptureOptions {
  /** X display on Linux (such as :0), gdigrab source on Windows (desktop); undefined: the platform default. */
  source: string | undefined;
  /** The ffmpeg executable. */
  ffmpeg: string;
}

/** After 'q', how long ffmpeg may take to write its last fragment before SIGINT, then SIGKILL. */
const QUIT_WAIT_MS = 5000;
const INTERRUPT_WAIT_MS = 3000;

/** The default capture source of a platform. */
export function defaultSource(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  return platform === 'win32' ? 'desktop' : env.DISPLAY || ':0';
}

/**
 * ffmpeg's arguments: the desktop at the host's frame rate, scaled to even dimensions, H.264 for
 * low latency, one key frame a second, as fragmented MP4 on stdout (each fragment playable as it
 * lands, so a cut capture keeps all its complete fragments). Undefined where no grabber is known.
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
    ['-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${kbps * 2}k`, '-g', fps],
    ['-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', 'pipe:1'],
  ].flat();
}

/** One session's capture: ffmpeg's output goes to the server as it records. */
export class VideoCapture {
  private exited = false;
  private stopping: Promise<void> | undefined;
  /** ffmpeg is gone (or never started). */
  private readonly ended: Promise<void>;
  /** ffmpeg is gone and what it wrote is uploaded. */
  private readonly finished: Promise<void>;

  private readonly uploader: VideoUploader;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    identity: Identity,
    recordingId: string,
    private readonly log: Log,
  ) {
    // The upload gives up (server refuses, memory cap): stop capturing too.
    const uploader = new VideoUploader(identity, recordingId, log, () => void this.stop());
    this.uploader = uploader;
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    child.stdout.on('data', (c: Buffer) => uploader.push(c));
    // A broken pipe on stdin (ffmpeg gone) must not take the agent down.
    child.stdin.on('error', () => undefined);
    this.ended = new Promise((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        this.exited = true;
        log.error(
          error.code === 'ENOENT'
            ? `ffmpeg was not found (${child.spawnfile}): this rdp session runs without video. Install ffmpeg or pass --ffmpeg.`
            : `ffmpeg could not start: ${error.message}; this rdp session runs without video`,
        );
        resolve();
      });
      // 'close': ffmpeg exited and its stdout is drained, so every byte reached the uploader.
      child.once('close', (code, signal) => {
        this.exited = true;
        if (code !== 0 && !(code === 255 && this.stopping)) {
          log.error(
            `ffmpeg ended with ${signal ?? `code ${code}`}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
          );
        }
        resolve();
      });
    });
    this.finished = this.ended.then(() => uploader.finish());
  }

  /** Starts capturing for a recording; undefined (with a warning) on a platform without a grabber. */
  static start(input: {
    record: RecordVideo;
    identity: Identity;
    options: CaptureOptions;
    log: Log;
    platform?: NodeJS.Platform;
  }): VideoCapture | undefined {
    const { record, options, log } = input;
    const platform = input.platform ?? process.platform;
    const source = options.source ?? defaultSource(platform, process.env);
    const args = ffmpegArgs(platform, source, record);
    if (!args) {
      log.warn(`video capture works on Linux (x11grab) and Windows (gdigrab), not ${platform}; no video`);
      return undefined;
    }
    const child = spawn(options.ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const capture = new VideoCapture(child, input.identity, record.recording_id, log);
    log.info(`capturing ${source} for recording ${record.recording_id} at ${record.fps} fps`);
    return capture;
  }

  /**
   * Ends the capture so the last fragment is written: 'q' on ffmpeg's stdin, SIGINT when it does
   * not quit in time, SIGKILL last. Settles once what was captured is uploaded (or given up).
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (!this.exited) {
        this.child.stdin.end('q');
        const interrupt = setTimeout(() => this.child.kill('SIGINT'), QUIT_WAIT_MS);
        const kill = setTimeout(() => this.child.kill('SIGKILL'), QUIT_WAIT_MS + INTERRUPT_WAIT_MS);
        await this.ended;
        clearTimeout(interrupt);
        clearTimeout(kill);
      }
      await this.finished;
      this.log.info(`video of recording ${this.uploader.recordingId}: ${this.uploader.stored} bytes uploaded`);
    })();
    return this.stopping;
  }
}

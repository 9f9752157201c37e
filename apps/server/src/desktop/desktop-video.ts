import type { DesktopLog } from './desktop-session.js';

/** How often what ffmpeg wrote is committed (about a second of video, as the agent uploads). */
const FLUSH_MS = 1000;
/** A piece is committed as soon as this much is waiting. */
const PIECE_BYTES = 4 * 1024 * 1024;
/** Most bytes waiting while the database is slow; past it the recording is declared broken. */
const MAX_WAITING_BYTES = 64 * 1024 * 1024;

/** Appends at the committed offset and answers the bytes stored (VideoService.appendFromGateway). */
export type AppendVideo = (input: { offset: number; data: Buffer; final: boolean }) => Promise<number>;

/**
 * The gateway's own video of a desktop, committed piece by piece to the recording (as an agent's
 * uploads are): ffmpeg's bytes are gathered, written at the committed offset about once a second,
 * one write at a time, and the last piece says final. `onFailure` runs once when pieces cannot be
 * stored (the desktop then ends: it is never left unrecorded).
 */
export class DesktopVideo {
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  private stored = 0;
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failed = false;
  private finished = false;

  constructor(
    private readonly append: AppendVideo,
    private readonly log: DesktopLog,
    private readonly onFailure: (error: Error) => void,
  ) {}

  /** Bytes committed so far. */
  get bytes(): number {
    return this.stored;
  }

  push(chunk: Buffer): void {
    if (this.failed || this.finished) return;
    this.waiting.push(chunk);
    this.waitingBytes += chunk.length;
    if (this.waitingBytes > MAX_WAITING_BYTES) return this.fail(new Error('the video could not be stored in time'));
    if (this.waitingBytes >= PIECE_BYTES) void this.flush(false);
    else this.timer ??= setTimeout(() => void this.flush(false), FLUSH_MS);
  }

  private flush(final: boolean): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const data = Buffer.concat(this.waiting);
    this.waiting = [];
    this.waitingBytes = 0;
    if (!final && data.length === 0) return this.chain;
    this.chain = this.chain.then(async () => {
      if (this.failed) return;
      try {
        this.stored = await this.append({ offset: this.stored, data, final });
      } catch (error) {
        this.fail(error as Error);
      }
    });
    return this.chain;
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.waiting = [];
    this.log.warn({ err: error }, 'desktop video not stored');
    this.onFailure(error);
  }

  /** Commits what is left as the final piece (call once ffmpeg has exited). */
  async finish(): Promise<number> {
    if (this.finished) return this.stored;
    this.finished = true;
    // A desktop that never showed a frame has no video: nothing to close.
    if (this.stored === 0 && this.waitingBytes === 0) return 0;
    await this.flush(true);
    return this.stored;
  }
}

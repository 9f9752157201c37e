import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import type { Log } from './log.js';
import type { Identity } from './state.js';

/** A piece is sent once this much is waiting, else every PIECE_INTERVAL_MS. */
const PIECE_BYTES = 1024 * 1024;
const PIECE_INTERVAL_MS = 1000;
/** The server takes at most 8 MiB a call. */
const MAX_PIECE_BYTES = 8 * 1024 * 1024;
/** Video waiting while the server is unreachable; past it the capture stops rather than fill memory. */
const MAX_WAITING_BYTES = 64 * 1024 * 1024;
/** A piece the server keeps failing for this long is given up. */
const GIVE_UP_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The message of the server's error body, or the text itself. */
function messageOf(text: string): string {
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return text.slice(0, 200);
  }
}

/**
 * Uploads a capture as it records: PUT /api/recording/{id}/video?offset=N, one piece at a time,
 * about every second or megabyte, retrying a failed piece with the same offset and bytes (the server
 * acknowledges a piece it already stored), and final=true once the capture ended.
 */
export class VideoUploader {
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  private offset = 0;
  private ended = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  /** Settles when the last piece was stored or the upload was given up. */
  readonly done: Promise<void>;

  constructor(
    private readonly identity: Identity,
    readonly recordingId: string,
    private readonly log: Log,
    /** Called once when the upload is given up, so the capture stops too. */
    private readonly onGiveUp: () => void,
  ) {
    this.done = this.run();
  }

  /** Bytes the server has stored. */
  get stored(): number {
    return this.offset;
  }

  /** Video from the encoder. */
  push(chunk: Buffer): void {
    if (this.stopped) return;
    this.waiting.push(chunk);
    this.waitingBytes += chunk.length;
    if (this.waitingBytes > MAX_WAITING_BYTES) {
      this.giveUp(`${this.waitingBytes} bytes of video wait for the server; capture stopped`);
    } else if (this.waitingBytes >= PIECE_BYTES) this.wake?.();
  }

  /** The capture ended: send what is left, marked final. */
  finish(): Promise<void> {
    this.ended = true;
    this.wake?.();
    return this.done;
  }

  private giveUp(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.waiting = [];
    this.waitingBytes = 0;
    this.log.error(`video of recording ${this.recordingId}: ${reason}; ${this.offset} bytes kept on the server`);
    this.wake?.();
    this.onGiveUp();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (!this.ended && this.waitingBytes < PIECE_BYTES) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, PIECE_INTERVAL_MS);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
      const piece = this.take();
      const final = this.ended && this.waitingBytes === 0;
      if (piece.length === 0 && !final) continue;
      // Nothing was ever captured (ffmpeg missing or failing): the session simply has no video.
      if (piece.length === 0 && this.offset === 0) return;
      if (!(await this.send(piece, final)) || final) return;
    }
  }

  private take(): Buffer {
    const parts: Buffer[] = [];
    let size = 0;
    while (this.waiting.length > 0 && size < MAX_PIECE_BYTES) {
      const next = this.waiting[0]!;
      const room = MAX_PIECE_BYTES - size;
      if (next.length > room) {
        parts.push(next.subarray(0, room));
        this.waiting[0] = next.subarray(room);
        size += room;
      } else {
        parts.push(next);
        this.waiting.shift();
        size += next.length;
      }
    }
    this.waitingBytes -= size;
    return Buffer.concat(parts, size);
  }

  /** Sends one piece until the server stores it; answers false when the upload was given up. */
  private async send(piece: Buffer, final: boolean): Promise<boolean> {
    const url = `${this.identity.server}/api/recording/${this.recordingId}/video?offset=${this.offset}${final ? '&final=true' : ''}`;
    const started = Date.now();
    for (let attempt = 0; !this.stopped; attempt += 1) {
      let problem: string;
      try {
        const res = await fetch(url, {
          method: 'PUT',
          headers: {
            'content-type': 'application/octet-stream',
            [AGENT_ID_HEADER]: this.identity.id,
            [AGENT_CREDENTIAL_HEADER]: this.identity.credential,
          },
          body: piece,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        if (res.ok) {
          this.offset += piece.length;
          return true;
        }
        problem = `HTTP ${res.status} ${messageOf(text)}`;
        // The server refuses this upload for good (not this agent's, not rdp, offset mismatch).
        if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
          this.giveUp(`the server refused it: ${problem}`);
          return false;
        }
      } catch (error) {
        problem = (error as Error).message;
      }
      if (Date.now() - started > GIVE_UP_MS) {
        this.giveUp(`the server did not take it for ${GIVE_UP_MS / 60_000} minutes (${problem})`);
        return false;
      }
      this.log.warn(`video of recording ${this.recordingId}: upload at ${this.offset} failed (${problem}); retrying`);
      await sleep(Math.min(1000 * 2 ** attempt, 10_000));
    }
    return false;
  }
}

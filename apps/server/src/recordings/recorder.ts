import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import type { CastEvent } from '@gatehouse/contracts';
import { chainStart } from './chain.js';
import { type IndexEntry, type WorkerReply, recorderWorker } from './recorder-worker.js';

/**
 * Pending events are appended this long after the first of them arrived (the spec asks for at
 * least every second), and sooner when FLUSH_BYTES wait. Idle sessions arm no timer at all.
 */
export const FLUSH_MS = 100;
/** While someone watches the session live: their delay is bounded by this. */
export const LIVE_FLUSH_MS = 20;
const FLUSH_BYTES = 512 * 1024;
/**
 * Consecutive output (or input) joins the event it follows while that event is younger than this
 * and smaller than MERGE_BYTES (asciicast players show merged 'o' events at the time of the first):
 * a flood of output costs one encoding per merged event instead of one per packet.
 */
const MERGE_MS = 5;
const MERGE_BYTES = 128 * 1024;
/** Above this many bytes not yet on disk the producer is asked to pause ('drain' resumes it). */
const HIGH_WATER = 2 * 1024 * 1024;

/** A chunk as live watchers get it, as soon as it is encoded (before it reaches the disk). */
export interface LiveChunk {
  seq: number;
  events: CastEvent[];
}

/** What the recorder reports once a chunk is on disk. */
export interface FlushedChunk {
  seq: number;
  bytes: number;
  chainHead: string;
}

/** An event still taking bytes: its time, kind and the raw bytes so far. */
interface OpenEvent {
  t: number;
  kind: 'o' | 'i';
  bytes: number;
}

/**
 * Writes one session as asciicast v2: a header line, then one JSON event per line, appended in
 * chunks. Each chunk extends a hash chain kept beside the file (`.chain`: seq, offset, length,
 * link), so any change to a written byte shows. This side only collects raw bytes; the shared
 * recorder thread (recorder-worker.ts) decodes, encodes, chains and appends them, in order.
 * Events are never dropped: while too much waits for the disk, `needsDrain` asks the producer to
 * pause. Events: 'live' (LiveChunk) for each chunk while watched, 'chunk' (FlushedChunk) once it
 * is appended, 'drain' when the backlog clears.
 */
export class Recorder extends EventEmitter {
  private open: OpenEvent | undefined;
  /** Sealed events of the next chunk, and their raw bytes. */
  private index: IndexEntry[] = [];
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  private backlog = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushMs = FLUSH_MS;
  private isWatched = false;
  /** Chunks handed over and not yet written, in order: each settles its flush() promise. */
  private readonly waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Settles when the last chunk handed over is on disk. */
  private writing: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private totals: FlushedChunk;
  private readonly worker = recorderWorker();
  private readonly rid: number;
  private readonly started = performance.now();
  /** Wall-clock time (ms) of the recording's time 0: event times are seconds after it. */
  readonly startedAt = Date.now();
  private finished = false;
  /** SHA-256 of the header line. */
  readonly headerSha256: string;

  private constructor(
    readonly file: string,
    readonly recordingId: string,
    headerLine: string,
  ) {
    super();
    this.headerSha256 = createHash('sha256').update(headerLine).digest('hex');
    const offset = Buffer.byteLength(headerLine);
    this.totals = { seq: 0, bytes: offset, chainHead: chainStart(recordingId) };
    this.rid = this.worker.open({ reply: (m) => this.reply(m) }, file, offset, this.totals.chainHead);
  }

  /** Creates the file with its asciicast v2 header. */
  static async create(
    file: string,
    recordingId: string,
    header: { width: number; height: number; term?: string; title?: string },
  ) {
    const line = `${JSON.stringify({
      version: 2,
      width: header.width,
      height: header.height,
      timestamp: Math.floor(Date.now() / 1000),
      env: { TERM: header.term ?? 'xterm-256color', SHELL: '/bin/sh' },
      ...(header.title ? { title: header.title } : {}),
    })}\n`;
    await fs.writeFile(file, line, { mode: 0o600, flag: 'wx' });
    await fs.writeFile(`${file}.chain`, '', { mode: 0o600, flag: 'wx' });
    return new Recorder(file, recordingId, line);
  }

  /** Seconds since the start, with microseconds. */
  private elapsed(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1e6;
  }

  /** Someone watches live (here or on another instance): flush sooner and emit 'live' from now on. */
  watched(): void {
    this.isWatched = true;
    this.flushMs = LIVE_FLUSH_MS;
  }

  /** Terminal output. */
  output(data: Buffer): void {
    this.take('o', data);
  }

  /** What the user typed (only when input capture is on). */
  input(data: Buffer): void {
    this.take('i', data);
  }

  /** The terminal was resized. */
  resize(cols: number, rows: number): void {
    if (this.finished) return;
    this.seal();
    this.index.push([this.elapsed(), 'r', 0, `${cols}x${rows}`]);
    this.arm();
  }

  /**
   * An asciicast marker event `[t, "m", text]`: file transfers and channel kinds (JSON, see
   * FileTransferMarker and ChannelMarker in the contracts), inside the hash chain like output.
   * Answers its time (seconds from the start).
   */
  marker(text: string): number {
    const t = this.elapsed();
    if (this.finished) return t;
    this.seal();
    this.index.push([t, 'm', 0, text]);
    this.arm();
    return t;
  }

  /** True while too much waits for the disk: the producer should pause until 'drain'. */
  get needsDrain(): boolean {
    return this.backlog > HIGH_WATER;
  }

  private take(kind: 'o' | 'i', data: Buffer): void {
    if (this.finished || data.length === 0) return;
    const t = this.elapsed();
    const open = this.open;
    if (!(open?.kind === kind && t - open.t <= MERGE_MS / 1000 && open.bytes < MERGE_BYTES)) {
      this.seal();
      this.open = { t, kind, bytes: 0 };
    }
    // ssh2 allocates every packet afresh, so holding on to `data` until the flush is safe.
    this.open!.bytes += data.length;
    this.parts.push(data);
    this.pendingBytes += data.length;
    this.backlog += data.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush().catch(() => undefined);
    else this.arm();
  }

  /** A failed append shows when the recording finishes (finish() rejects). */
  private arm(): void {
    this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.flushMs);
  }

  private seal(): void {
    if (!this.open) return;
    this.index.push([this.open.t, this.open.kind, this.open.bytes]);
    this.open = undefined;
  }

  /** Hands what is pending over as one chunk; resolves once it is on disk (chunks stay in order). */
  flush(): Promise<void> {
    return this.handOver(false);
  }

  private handOver(final: boolean): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.seal();
    if (this.failure) return Promise.reject(this.failure);
    if (this.index.length === 0 && !final) return this.writing;
    // One copy into memory the thread gave back (or new), which is then transferred, not copied.
    const data = this.worker.buffer(this.pendingBytes);
    let at = 0;
    for (const part of this.parts) at += part.copy(data, at);
    const promise = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.worker.chunk(this.rid, data, this.index, {
      watched: this.isWatched,
      final,
      t: this.elapsed(),
      raw: this.pendingBytes,
    });
    this.index = [];
    this.parts = [];
    this.pendingBytes = 0;
    this.writing = promise;
    return promise;
  }

  /** Hands over what remains and stops; answers the totals for the manifest. */
  async finish(): Promise<{ bytes: number; chunks: number; chainHead: string }> {
    this.seal();
    this.finished = true;
    try {
      // The last chunk also ends the UTF-8 decoders and closes the files.
      await this.handOver(true);
    } finally {
      this.worker.release(this.rid);
    }
    return { bytes: this.totals.bytes, chunks: this.totals.seq, chainHead: this.totals.chainHead };
  }

  private reply(m: WorkerReply): void {
    if (m.op === 'sealed') {
      this.emit('live', { seq: m.seq, events: m.events } satisfies LiveChunk);
      return;
    }
    if (m.op === 'failed') {
      this.failure = new Error(`the recording could not be written: ${m.message}`);
      this.worker.release(this.rid);
      for (const w of this.waiting.splice(0)) w.reject(this.failure);
      return;
    }
    const wasBlocked = this.needsDrain;
    this.backlog -= m.raw;
    if (m.seq > this.totals.seq) {
      this.totals = { seq: m.seq, bytes: m.bytes, chainHead: m.chainHead };
      this.emit('chunk', { ...this.totals } satisfies FlushedChunk);
    }
    this.waiting.shift()?.resolve();
    if (wasBlocked && !this.needsDrain) this.emit('drain');
  }
}

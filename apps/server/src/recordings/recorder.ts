import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { CastEvent } from '@gatehouse/contracts';
import { chainNext, chainStart } from './chain.js';

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

/** A chunk as live watchers get it, as soon as it is sealed (before it reaches the disk). */
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
  parts: Buffer[];
  bytes: number;
}

/**
 * Writes one session as asciicast v2: a header line, then one JSON event per line, appended in
 * chunks. Each chunk extends a hash chain kept beside the file (`.chain`: seq, offset, length,
 * link), so any change to a written byte shows. Events are never dropped: when the disk falls
 * behind, `needsDrain` asks the producer to pause.
 * Events: 'live' (LiveChunk) when a chunk is sealed while watched, 'chunk' (FlushedChunk) once it
 * is appended, 'drain' when the backlog clears.
 */
export class Recorder extends EventEmitter {
  private open: OpenEvent | undefined;
  /** Encoded lines and their events, sealed but not yet in a chunk. */
  private lines: Buffer[] = [];
  private linesBytes = 0;
  private events: CastEvent[] = [];
  private pendingBytes = 0;
  private writing: Promise<void> = Promise.resolve();
  private backlog = 0;
  private seq = 0;
  /** Where the next chunk starts; its chain link: both advance when a chunk is sealed. */
  private offset = 0;
  private chain: string;
  private written = { bytes: 0, chainHead: '' };
  private timer: NodeJS.Timeout | undefined;
  private flushMs = FLUSH_MS;
  private isWatched = false;
  private readonly decoders = { o: new StringDecoder('utf8'), i: new StringDecoder('utf8') };
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
    /** Open for appending for the recording's life: no open and close per chunk. */
    private readonly handles: { cast: fs.FileHandle; chain: fs.FileHandle },
  ) {
    super();
    this.chain = chainStart(recordingId);
    this.headerSha256 = createHash('sha256').update(headerLine).digest('hex');
    this.offset = Buffer.byteLength(headerLine);
    this.written = { bytes: this.offset, chainHead: this.chain };
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
    const cast = await fs.open(file, 'ax', 0o640);
    try {
      await cast.write(line);
      const chain = await fs.open(`${file}.chain`, 'ax', 0o640);
      return new Recorder(file, recordingId, line, { cast, chain });
    } catch (error) {
      await cast.close();
      throw error;
    }
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
    this.push([this.elapsed(), 'r', `${cols}x${rows}`], true);
    this.arm();
  }

  /** True while too much waits for the disk: the producer should pause until 'drain'. */
  get needsDrain(): boolean {
    return this.backlog > HIGH_WATER;
  }

  private take(kind: 'o' | 'i', data: Buffer): void {
    if (this.finished || data.length === 0) return;
    const t = this.elapsed();
    const open = this.open;
    // ssh2 allocates every packet afresh, so holding on to `data` until the seal is safe.
    if (open?.kind === kind && t - open.t <= MERGE_MS / 1000 && open.bytes < MERGE_BYTES) {
      open.parts.push(data);
      open.bytes += data.length;
    } else {
      this.seal();
      this.open = { t, kind, parts: [data], bytes: data.length };
    }
    this.pendingBytes += data.length;
    this.backlog += data.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush().catch(() => undefined);
    else this.arm();
  }

  /** A failed append shows when the recording finishes (finish() rejects). */
  private arm(): void {
    this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.flushMs);
  }

  /** Encodes the open event: one decode and one JSON escape for all its bytes. */
  private seal(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    const bytes = open.parts.length === 1 ? open.parts[0]! : Buffer.concat(open.parts, open.bytes);
    const decoder = this.decoders[open.kind];
    // Plain ASCII (most terminal output) with no character split before it: latin1 is the same
    // text, and both conversions are copies where UTF-8 would validate every byte.
    if ((decoder as unknown as { lastNeed: number }).lastNeed === 0 && isAscii(bytes)) {
      this.push([open.t, open.kind, bytes.toString('latin1')], true);
    } else {
      const text = decoder.write(bytes);
      if (text) this.push([open.t, open.kind, text], false);
    }
  }

  private push(event: CastEvent, ascii: boolean): void {
    // The same text as JSON.stringify(event), without building and walking the array.
    const line = `[${event[0]},"${event[1]}",${JSON.stringify(event[2])}]\n`;
    const bytes = ascii ? Buffer.from(line, 'latin1') : Buffer.from(line);
    this.lines.push(bytes);
    this.linesBytes += bytes.length;
    this.events.push(event);
  }

  /**
   * Seals what is pending as one chunk, hands it to live watchers at once, and queues its append
   * (calls queue, so chunks reach the disk in order).
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.seal();
    if (this.lines.length === 0) return this.writing;
    const events = this.events;
    const chunk = this.lines.length === 1 ? this.lines[0]! : Buffer.concat(this.lines, this.linesBytes);
    const taken = this.pendingBytes;
    this.lines = [];
    this.linesBytes = 0;
    this.events = [];
    this.pendingBytes = 0;
    this.seq += 1;
    this.chain = chainNext(this.chain, chunk);
    const seq = this.seq;
    const chainHead = this.chain;
    const chainLine = `${seq} ${this.offset} ${chunk.length} ${chainHead}\n`;
    this.offset += chunk.length;
    const bytes = this.offset;
    // Nobody watching: no 'live', so nothing encodes the chunk a second time for sockets.
    if (this.isWatched) this.emit('live', { seq, events } satisfies LiveChunk);
    this.writing = this.writing.then(async () => {
      await this.handles.cast.write(chunk);
      await this.handles.chain.write(chainLine);
      this.written = { bytes, chainHead };
      const wasBlocked = this.needsDrain;
      this.backlog -= taken;
      this.emit('chunk', { seq, bytes, chainHead } satisfies FlushedChunk);
      if (wasBlocked && !this.needsDrain) this.emit('drain');
    });
    return this.writing;
  }

  /** Flushes what remains and stops; answers the totals for the manifest. */
  async finish(): Promise<{ bytes: number; chunks: number; chainHead: string }> {
    this.seal();
    for (const kind of ['o', 'i'] as const) {
      const rest = this.decoders[kind].end();
      if (rest) this.push([this.elapsed(), kind, rest], false);
    }
    this.finished = true;
    try {
      await this.flush();
      await this.writing;
    } finally {
      await Promise.all([this.handles.cast.close(), this.handles.chain.close()]);
    }
    return { bytes: this.written.bytes, chunks: this.seq, chainHead: this.written.chainHead };
  }
}

import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { CastEvent } from '@gatehouse/contracts';
import { chainNext, chainStart } from './chain.js';

/**
 * Flush this often (the spec asks for at least every second), and sooner when this many bytes
 * wait. Each flush is also what live watchers get, so it bounds their delay; idle sessions write
 * nothing.
 */
export const FLUSH_MS = 100;
const FLUSH_BYTES = 256 * 1024;
/** Above this many bytes not yet on disk the producer is asked to pause ('drain' resumes it). */
const HIGH_WATER = 2 * 1024 * 1024;

/** What the recorder reports after each flush. */
export interface FlushedChunk {
  seq: number;
  events: CastEvent[];
  bytes: number;
  chainHead: string;
}

/**
 * Writes one session as asciicast v2: a header line, then one JSON event per line, appended in
 * chunks at least every second. Each chunk extends a hash chain kept beside the file
 * (`.chain`: seq, offset, length, link), so any change to a written byte shows. Events are never
 * dropped: when the disk falls behind, `needsDrain` asks the producer to pause.
 * Events: 'chunk' (FlushedChunk) after each append, 'drain' when the backlog clears.
 */
export class Recorder extends EventEmitter {
  private pending: CastEvent[] = [];
  private pendingBytes = 0;
  private writing: Promise<void> = Promise.resolve();
  private backlog = 0;
  private seq = 0;
  private offset = 0;
  private chain: string;
  private readonly timer: NodeJS.Timeout;
  private readonly decoders = { o: new StringDecoder('utf8'), i: new StringDecoder('utf8') };
  private readonly started = process.hrtime.bigint();
  private finished = false;
  /** SHA-256 of the header line. */
  readonly headerSha256: string;

  private constructor(
    readonly file: string,
    readonly recordingId: string,
    headerLine: string,
  ) {
    super();
    this.chain = chainStart(recordingId);
    this.headerSha256 = createHash('sha256').update(headerLine).digest('hex');
    this.offset = Buffer.byteLength(headerLine);
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
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
    await fs.writeFile(file, line, { mode: 0o640, flag: 'wx' });
    await fs.writeFile(`${file}.chain`, '', { mode: 0o640, flag: 'wx' });
    return new Recorder(file, recordingId, line);
  }

  private elapsed(): number {
    return Math.round(Number(process.hrtime.bigint() - this.started) / 1e3) / 1e6;
  }

  private add(event: CastEvent): void {
    if (this.finished) return;
    this.pending.push(event);
    const size = event[2].length + 24;
    this.pendingBytes += size;
    this.backlog += size;
    if (this.pendingBytes >= FLUSH_BYTES) void this.flush();
  }

  /** Terminal output. */
  output(data: Buffer): void {
    const text = this.decoders.o.write(data);
    if (text) this.add([this.elapsed(), 'o', text]);
  }

  /** What the user typed (only when input capture is on). */
  input(data: Buffer): void {
    const text = this.decoders.i.write(data);
    if (text) this.add([this.elapsed(), 'i', text]);
  }

  /** The terminal was resized. */
  resize(cols: number, rows: number): void {
    this.add([this.elapsed(), 'r', `${cols}x${rows}`]);
  }

  /** True while too much waits for the disk: the producer should pause until 'drain'. */
  get needsDrain(): boolean {
    return this.backlog > HIGH_WATER;
  }

  /** Appends what is pending as one chunk; calls queue so chunks stay in order. */
  flush(): Promise<void> {
    if (this.pending.length === 0) return this.writing;
    const events = this.pending;
    const bytesBefore = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    const chunk = Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    this.writing = this.writing.then(async () => {
      await fs.appendFile(this.file, chunk);
      this.seq += 1;
      this.chain = chainNext(this.chain, chunk);
      await fs.appendFile(`${this.file}.chain`, `${this.seq} ${this.offset} ${chunk.length} ${this.chain}\n`);
      this.offset += chunk.length;
      const wasBlocked = this.needsDrain;
      this.backlog -= bytesBefore;
      this.emit('chunk', { seq: this.seq, events, bytes: this.offset, chainHead: this.chain } satisfies FlushedChunk);
      if (wasBlocked && !this.needsDrain) this.emit('drain');
    });
    return this.writing;
  }

  /** Flushes what remains and stops; answers the totals for the manifest. */
  async finish(): Promise<{ bytes: number; chunks: number; chainHead: string }> {
    clearInterval(this.timer);
    const restO = this.decoders.o.end();
    if (restO) this.add([this.elapsed(), 'o', restO]);
    this.finished = true;
    await this.flush();
    await this.writing;
    return { bytes: this.offset, chunks: this.seq, chainHead: this.chain };
  }
}

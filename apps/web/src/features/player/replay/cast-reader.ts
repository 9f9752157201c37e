import { CastStreamParser, type PlacedEvent } from './cast-stream';

/** Fetches bytes [start, end) of the cast file (fewer when the server sends less). */
export type RangeFetcher = (start: number, end: number) => Promise<Uint8Array>;

/** How much a player asks for at a time: enough for minutes of typing, small enough to arrive fast. */
export const WINDOW_BYTES = 256 * 1024;

/**
 * Reads a cast file forward in windows of bytes from any offset, so playback never waits for the
 * whole file. A reset (a seek) makes reads still in flight answer null instead of stale events.
 */
export class CastReader {
  private parser = new CastStreamParser(0);
  private cursor = 0;
  private limit = 0;
  private generation = 0;
  private inflight: Promise<PlacedEvent[] | null> | null = null;

  constructor(
    private readonly fetchRange: RangeFetcher,
    private readonly windowBytes = WINDOW_BYTES,
  ) {}

  /**
   * Reads from `offset` on, up to `limit` (bytes of complete events). `skipPartialLine` when the
   * offset may fall inside a line, as when reading context before a seek point.
   */
  reset(offset: number, limit: number, skipPartialLine = false): void {
    this.generation += 1;
    this.inflight = null;
    this.parser = new CastStreamParser(offset, skipPartialLine);
    this.cursor = offset;
    this.limit = limit;
  }

  /** The file grew (a live recording): read up to the new limit. */
  extend(limit: number): void {
    this.limit = Math.max(this.limit, limit);
  }

  /** Takes bytes already fetched at the current position (the first window, fetched with the header). */
  accept(bytes: Uint8Array): PlacedEvent[] {
    const taken = bytes.subarray(0, Math.max(0, this.limit - this.cursor));
    this.cursor += taken.length;
    return this.parser.push(taken);
  }

  /** Every byte up to the limit has been read. */
  get done(): boolean {
    return this.cursor >= this.limit;
  }

  /** A read is under way. */
  get busy(): boolean {
    return this.inflight !== null;
  }

  /** The next byte to read. */
  get position(): number {
    return this.cursor;
  }

  /**
   * Fetches the next window (at most `maxBytes`) and answers its complete events; null when a
   * reset came first. Concurrent calls share one fetch.
   */
  readNext(maxBytes = this.windowBytes): Promise<PlacedEvent[] | null> {
    if (this.inflight) return this.inflight;
    if (this.done) return Promise.resolve([]);
    const generation = this.generation;
    const start = this.cursor;
    const end = Math.min(this.limit, start + maxBytes);
    const read = this.fetchRange(start, end).then(
      (bytes) => {
        if (generation !== this.generation) return null;
        this.inflight = null;
        // A server that sends nothing would otherwise be asked again forever.
        if (bytes.length === 0) this.limit = this.cursor;
        this.cursor += bytes.length;
        return this.parser.push(bytes);
      },
      (error: unknown) => {
        if (generation === this.generation) this.inflight = null;
        throw error;
      },
    );
    this.inflight = read;
    return read;
  }
}

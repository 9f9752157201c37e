/**
 * What a protocol observer does next with one direction's bytes. Steps are the observer's whole
 * memory of a packet in progress: `take` is the only one that holds bytes, and only up to its
 * bound, so a peer announcing a huge length makes the observer count or skip, never allocate.
 */
export type Step =
  /** Collect exactly n bytes (n ≤ MAX_TAKE), then continue with them. */
  | { take: number; then: (bytes: Buffer) => Step }
  /** Hand the next n bytes on as they pass (no copy), then continue. */
  | { stream: number; to: (piece: Buffer) => void; then: () => Step }
  /** Let the next n bytes pass unseen. */
  | { skip: number; then: () => Step }
  /** Collect up to and including a newline, at most `max` bytes, then continue with the line (without it). */
  | { line: number; then: (line: Buffer) => Step }
  /** Decide the next step only once more bytes arrive (the other direction may answer first). */
  | { await: () => Step }
  /** Observe no more. */
  | { stop: true };

/** The most a `take` or `line` step may hold. */
export const MAX_TAKE = 64 * 1024;

/** A failure of the peer's bytes to parse: the observer stops, with this reason. */
export class Unparsable extends Error {}

/**
 * Feeds one direction's bytes through steps. Never throws: a step that throws (or asks for more
 * than MAX_TAKE) stops the reader and reports why once.
 */
export class StepReader {
  private held: Buffer[] = [];
  private heldBytes = 0;

  constructor(
    private step: Step,
    private readonly failed: (why: string) => void,
  ) {}

  /** True once the reader observes no more. */
  get stopped(): boolean {
    return 'stop' in this.step;
  }

  /** Stops observing without a report (the other direction failed, or the channel ended). */
  stop(): void {
    this.step = { stop: true };
    this.held = [];
    this.heldBytes = 0;
  }

  push(data: Buffer): void {
    if (this.stopped) return;
    try {
      this.consume(data);
    } catch (error) {
      this.stop();
      this.failed(error instanceof Unparsable ? error.message : `the observer failed (${String(error)})`);
    }
  }

  private consume(data: Buffer): void {
    let at = 0;
    for (;;) {
      const s = this.step;
      if ('stop' in s) return;
      if ('await' in s) {
        if (at >= data.length) return;
        this.step = s.await();
        continue;
      }
      if ('take' in s) {
        if (!Number.isInteger(s.take) || s.take < 0 || s.take > MAX_TAKE)
          throw new Unparsable(`a field of ${s.take} bytes is beyond what is observed`);
        if (this.heldBytes === 0 && data.length - at >= s.take) {
          const bytes = data.subarray(at, at + s.take);
          at += s.take;
          this.step = s.then(bytes);
          continue;
        }
        if (at >= data.length) return;
        const piece = data.subarray(at, at + s.take - this.heldBytes);
        at += piece.length;
        this.hold(piece);
        if (this.heldBytes === s.take) this.step = s.then(this.release());
        continue;
      }
      if ('line' in s) {
        if (at >= data.length) return;
        const end = data.indexOf(0x0a, at);
        const stop = end === -1 ? data.length : end;
        if (this.heldBytes + (stop - at) > Math.min(s.line, MAX_TAKE))
          throw new Unparsable(`a line longer than ${Math.min(s.line, MAX_TAKE)} bytes`);
        this.hold(data.subarray(at, stop));
        if (end === -1) return;
        at = end + 1;
        this.step = s.then(this.release());
        continue;
      }
      const n = 'stream' in s ? s.stream : s.skip;
      if (n === 0) {
        this.step = s.then();
        continue;
      }
      if (at >= data.length) return;
      const k = Math.min(n, data.length - at);
      if ('stream' in s) {
        s.to(data.subarray(at, at + k));
        this.step = { ...s, stream: n - k };
      } else this.step = { ...s, skip: n - k };
      at += k;
    }
  }

  private hold(piece: Buffer): void {
    if (piece.length === 0) return;
    this.held.push(piece);
    this.heldBytes += piece.length;
  }

  private release(): Buffer {
    const bytes = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    return bytes;
  }
}

/** Bounds-checked reads over one collected packet body; any overrun is Unparsable. */
export class Cursor {
  private at = 0;
  constructor(private readonly bytes: Buffer) {}

  u32(): number {
    if (this.at + 4 > this.bytes.length) throw new Unparsable('a packet ends inside a number');
    const v = this.bytes.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }

  u64(): number {
    if (this.at + 8 > this.bytes.length) throw new Unparsable('a packet ends inside a number');
    const v = this.bytes.readBigUInt64BE(this.at);
    this.at += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Unparsable('an offset beyond 2^53');
    return Number(v);
  }

  bytesField(): Buffer {
    const n = this.u32();
    if (this.at + n > this.bytes.length) throw new Unparsable('a string runs past the end of its packet');
    const v = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }

  text(): string {
    return this.bytesField().toString('utf8');
  }
}

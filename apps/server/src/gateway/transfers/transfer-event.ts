import { createHash, type Hash } from 'node:crypto';
import type { FileTransferMarker } from '@gatehouse/contracts';

/** One observed file operation, as the cast marker and the file_transfers table carry it. */
export type TransferEvent = Omit<FileTransferMarker, 'type'>;

/** Where an observer reports its events. */
export type TransferSink = (event: TransferEvent) => void;

/** The longest path, target or outcome text kept (longer ones are cut and marked). */
const MAX_TEXT = 4096;

/** Text from the wire made safe to show and store: no control characters, bounded length. */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = text.replace(/[\u0000-\u001f\u007f]/g, '\ufffd');
  return safe.length > MAX_TEXT ? `${safe.slice(0, MAX_TEXT)}…` : safe;
}

/**
 * Out-of-order bytes an observer may hold, for all its files together. OpenSSH keeps up to 64
 * requests of 32 KiB (or 255 KiB) in flight; replies come in order unless a short read is asked
 * again, so a few MiB is room enough. Beyond it the file's digest is given up, never the session.
 */
export const REORDER_LIMIT = 4 * 1024 * 1024;
/** Out-of-order pieces held, for all files together. */
const REORDER_PIECES = 4096;

/** What all digests of one observer hold out of order, together. */
export interface ReorderBudget {
  bytes: number;
  pieces: number;
}

/**
 * The SHA-256 of one file's bytes in offset order from 0, fed pieces as they pass (in any order
 * within the reorder window). When the bytes are not one contiguous run from 0, the digest is
 * null and `note` says why; the byte count is always what passed.
 */
export class FileDigest {
  private readonly hash: Hash = createHash('sha256');
  private next = 0;
  /** Pieces beyond `next`, sorted by offset. */
  private ahead: { offset: number; bytes: Buffer }[] = [];
  private aheadBytes = 0;
  /** Bytes that passed, whatever their order. */
  bytes = 0;
  private broken: string | undefined;

  constructor(private readonly budget: ReorderBudget) {}

  add(offset: number, piece: Buffer): void {
    this.bytes += piece.length;
    if (this.broken || piece.length === 0) return;
    if (offset < this.next) return this.breakWith('some byte ranges passed more than once');
    if (offset > this.next) {
      if (this.budget.bytes + piece.length > REORDER_LIMIT || this.budget.pieces >= REORDER_PIECES)
        return this.breakWith(
          `the bytes arrived out of order beyond the ${REORDER_LIMIT / 1024 / 1024} MiB reorder window`,
        );
      // Held beyond this call: a copy of its own, so the packet behind it is not kept alive.
      const copy = Buffer.from(piece);
      let i = this.ahead.length;
      while (i > 0 && this.ahead[i - 1]!.offset > offset) i -= 1;
      this.ahead.splice(i, 0, { offset, bytes: copy });
      this.aheadBytes += copy.length;
      this.budget.bytes += copy.length;
      this.budget.pieces += 1;
      return;
    }
    this.hash.update(piece);
    this.next += piece.length;
    while (this.ahead.length > 0 && this.ahead[0]!.offset <= this.next) {
      const first = this.ahead.shift()!;
      this.release(first.bytes.length);
      if (first.offset < this.next) return this.breakWith('some byte ranges passed more than once');
      this.hash.update(first.bytes);
      this.next += first.bytes.length;
    }
  }

  /** The digest of the whole run, or null and why. */
  result(): { sha256: string | null; note?: string } {
    if (!this.broken && this.ahead.length > 0)
      this.breakWith(`the bytes that passed leave a gap at offset ${this.next} (not one run from offset 0)`);
    this.free();
    return this.broken ? { sha256: null, note: this.broken } : { sha256: this.hash.digest('hex') };
  }

  /** Lets go of held pieces (the file is done with, or the observer stopped). */
  free(): void {
    for (const piece of this.ahead) this.release(piece.bytes.length);
    this.ahead = [];
  }

  private release(n: number): void {
    this.aheadBytes -= n;
    this.budget.bytes -= n;
    this.budget.pieces -= 1;
  }

  private breakWith(why: string): void {
    this.broken ??= why;
    this.free();
  }
}

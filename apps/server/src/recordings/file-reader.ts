import type { FileHandle } from 'node:fs/promises';

/** Bytes read per system call when streaming a recording's files. */
export const READ_WINDOW = 256 * 1024;
const NEWLINE = 0x0a;

/** Reads up to `length` bytes at `position` (fewer at the end of the file). */
export async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** One line of a file: where it starts and its bytes (without the newline). */
export interface FileLine {
  offset: number;
  /** The line's bytes, at most `maxLine` of them; valid until the next line is asked for. */
  line: Buffer;
  /** The line was longer than `maxLine`: only its start is in `line`. */
  cut: boolean;
  /** Ended by a newline (false only for a last line the file ends inside). */
  complete: boolean;
}

/**
 * Streams the lines of a file from `start` to `end` through one window of READ_WINDOW bytes, so
 * memory stays bounded at any file size: a line longer than `maxLine` yields only its start (and
 * `cut`). A last line without its newline is yielded with `complete` false.
 */
export async function* readLines(
  handle: FileHandle,
  start: number,
  end: number,
  maxLine: number,
): AsyncGenerator<FileLine> {
  const window = Buffer.allocUnsafe(READ_WINDOW);
  /** The current line's bytes from earlier windows (copied: the window is reused). */
  let parts: Buffer[] = [];
  let kept = 0;
  let cut = false;
  let lineStart = start;
  const take = (piece: Buffer, copy: boolean) => {
    const room = maxLine - kept;
    if (piece.length > room) cut = true;
    const keep = piece.subarray(0, Math.max(0, room));
    if (keep.length === 0) return;
    parts.push(copy ? Buffer.from(keep) : keep);
    kept += keep.length;
  };
  const line = (): Buffer => (parts.length === 1 ? parts[0]! : Buffer.concat(parts, kept));
  for (let at = start; at < end;) {
    const { bytesRead } = await handle.read(window, 0, Math.min(READ_WINDOW, end - at), at);
    if (bytesRead === 0) break;
    const bytes = window.subarray(0, bytesRead);
    let from = 0;
    for (let nl = bytes.indexOf(NEWLINE); nl >= 0; nl = bytes.indexOf(NEWLINE, from)) {
      take(bytes.subarray(from, nl), false);
      yield { offset: lineStart, line: line(), cut, complete: true };
      parts = [];
      kept = 0;
      cut = false;
      from = nl + 1;
      lineStart = at + from;
    }
    if (from < bytes.length) take(bytes.subarray(from), true);
    at += bytesRead;
  }
  if (kept > 0 || cut) yield { offset: lineStart, line: line(), cut, complete: false };
}

/**
 * Reads a file front to back through one buffer: `range` yields a byte range in pieces of at
 * most the buffer's size, served from what was read ahead when ranges follow each other (a
 * recording's chunks do), so many small chunks cost few system calls.
 */
export class SequentialReader {
  private readonly buffer: Buffer;
  private bufferStart = 0;
  private bufferEnd = 0;

  constructor(
    private readonly handle: FileHandle,
    bufferSize = 1024 * 1024,
  ) {
    this.buffer = Buffer.allocUnsafe(bufferSize);
  }

  /**
   * The bytes of [start, start + length) in order, each piece valid until the next is asked for;
   * stops early at the end of the file.
   */
  async *range(start: number, length: number): AsyncGenerator<Buffer> {
    const end = start + length;
    for (let at = start; at < end;) {
      if (at < this.bufferStart || at >= this.bufferEnd) {
        const { bytesRead } = await this.handle.read(this.buffer, 0, this.buffer.length, at);
        if (bytesRead === 0) return;
        this.bufferStart = at;
        this.bufferEnd = at + bytesRead;
      }
      const from = at - this.bufferStart;
      const to = Math.min(end, this.bufferEnd) - this.bufferStart;
      yield this.buffer.subarray(from, to);
      at = this.bufferStart + to;
    }
  }
}

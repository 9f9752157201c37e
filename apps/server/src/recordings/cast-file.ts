import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { type CastEvent, castEvent } from '@gatehouse/contracts';
import { lastChainEntry } from './chain-file.js';
import { READ_WINDOW, readAt, readLines } from './file-reader.js';
import { type Snippet, snippetAt } from './snippet.js';

const WINDOW = 64 * 1024;
const NEWLINE = 0x0a;
/**
 * Longest event line read whole: the recorder's are under 1 MiB (an event takes at most about
 * 160 KiB of output, and JSON at most six bytes for one). Longer lines (a damaged or foreign
 * file) are passed over, not held.
 */
export const MAX_EVENT_LINE = 4 * 1024 * 1024;

/** Longest header line looked for: the recorder's is a few hundred bytes. */
export const MAX_HEADER = 1024 * 1024;
/**
 * The header line of an open cast file: where it ends (just past its newline; 0 when there is none
 * in the first MAX_HEADER bytes) and its SHA-256, read in windows.
 */
export async function castHeader(cast: FileHandle): Promise<{ end: number; sha256: string }> {
  const hash = createHash('sha256');
  const window = Buffer.allocUnsafe(READ_WINDOW);
  for (let at = 0; at < MAX_HEADER;) {
    const { bytesRead } = await cast.read(window, 0, READ_WINDOW, at);
    if (bytesRead === 0) break;
    const newline = window.subarray(0, bytesRead).indexOf(0x0a);
    if (newline >= 0)
      return { end: at + newline + 1, sha256: hash.update(window.subarray(0, newline + 1)).digest('hex') };
    hash.update(window.subarray(0, bytesRead));
    at += bytesRead;
  }
  return { end: 0, sha256: createHash('sha256').digest('hex') };
}

/** The time of the event line that starts at the beginning of `bytes` (asciicast v2: `[t, ...`). */
export function eventTime(bytes: Buffer): number | undefined {
  const match = /^\[\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(bytes.subarray(0, 48).toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

/**
 * An asciicast v2 file read in place: where its events begin, how far it is complete, and where
 * a time lies in it (a binary search over byte positions: a seek costs a few small reads at any
 * size). `size` is the part to use (a live recording's last complete chunk).
 */
export class CastFile {
  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    readonly eventsStart: number,
  ) {}

  /** Opens a cast file; `size` defaults to the file's length. */
  static async open(file: string, size?: number): Promise<CastFile> {
    const handle = await fs.open(file, 'r');
    try {
      const length = size ?? (await handle.stat()).size;
      let eventsStart = length;
      // A header with no newline in its first MAX_HEADER bytes: the file has no events to read.
      for (let at = 0; at < Math.min(length, MAX_HEADER); at += WINDOW) {
        const index = (await readAt(handle, at, Math.min(WINDOW, length - at))).indexOf(NEWLINE);
        if (index >= 0) {
          eventsStart = at + index + 1;
          break;
        }
      }
      return new CastFile(handle, length, eventsStart);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /** The header line, parsed. */
  async header(): Promise<Record<string, unknown>> {
    const text = (await readAt(this.handle, 0, Math.min(this.eventsStart, 64 * 1024))).toString('utf8');
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return {};
    }
  }

  /** The first line start at or after `position` and before `limit` (`limit` when none). */
  async lineStartFrom(position: number, limit = this.size): Promise<number> {
    if (position <= this.eventsStart) return this.eventsStart;
    for (let at = position - 1; at < limit; at += WINDOW) {
      const index = (await readAt(this.handle, at, Math.min(WINDOW, limit - at))).indexOf(NEWLINE);
      if (index >= 0) return at + index + 1;
    }
    return limit;
  }

  private async timeAt(lineStart: number): Promise<number | undefined> {
    return eventTime(await readAt(this.handle, lineStart, 48));
  }

  /** Offset of the first event at or after time t, and that event's time (the end when none). */
  async seek(t: number): Promise<{ offset: number; t: number }> {
    let lo = this.eventsStart;
    let hi = this.size;
    // Invariant: lo and hi are line starts (or the end); every event before lo is earlier than t,
    // and the event at hi (if any) is at t or later.
    while (hi - lo > WINDOW) {
      const mid = lo + Math.floor((hi - lo) / 2);
      // Looking no further than hi: a long line costs one pass over it, not one per step.
      const line = await this.lineStartFrom(mid, hi);
      if (line >= hi) break;
      const time = await this.timeAt(line);
      if (time !== undefined && time < t) lo = line;
      else hi = line;
    }
    // What is left is small (or one long line): scan it, a window at a time.
    for await (const { offset, line } of this.lines(lo, hi)) {
      const time = eventTime(line);
      if (time !== undefined && time >= t) return { offset, t: time };
    }
    if (hi < this.size) return { offset: hi, t: (await this.timeAt(hi)) ?? t };
    return { offset: this.size, t: await this.duration() };
  }

  /** Time of the last event (0 when there is none). */
  async duration(): Promise<number> {
    if (this.size <= this.eventsStart) return 0;
    // The last line ends with the newline at size - 1: look for the newline before it.
    let end = this.size - 1;
    while (end > this.eventsStart) {
      const start = Math.max(this.eventsStart, end - WINDOW);
      const index = (await readAt(this.handle, start, end - start)).lastIndexOf(NEWLINE);
      if (index >= 0) return (await this.timeAt(start + index + 1)) ?? 0;
      end = start;
    }
    return (await this.timeAt(this.eventsStart)) ?? 0;
  }

  /**
   * Streams complete event lines from `offset` to `end` (the usable size by default), with the
   * offset of each, in bounded memory; a line is valid until the next is asked for, and one longer
   * than MAX_EVENT_LINE comes cut (`cut`).
   */
  async *lines(
    offset = this.eventsStart,
    end = this.size,
  ): AsyncGenerator<{ offset: number; line: Buffer; cut: boolean }> {
    for await (const { offset: at, line, cut, complete } of readLines(this.handle, offset, end, MAX_EVENT_LINE)) {
      if (complete) yield { offset: at, line, cut };
    }
  }
}

// Escape sequences (CSI, OSC, two-byte ESC) and other control characters except newlines.
// eslint-disable-next-line no-control-regex
const CONTROL = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

/** Terminal output as plain text: escape sequences and control characters removed. */
export function plainText(output: string): string {
  return output.replace(CONTROL, '');
}

/** One place a search of a recording's output found: its time, its event's offset and the snippet around it. */
export type CastHit = { t: number; offset: number; excerpt: string } & Omit<Snippet, 'snippet'>;

/** Where `query` appears in the output of a cast file (case-insensitive, escapes ignored). */
export async function searchCast(
  cast: CastFile,
  query: string,
  maxHits = 500,
): Promise<{ hits: CastHit[]; truncated: boolean }> {
  const needle = query.toLocaleLowerCase();
  const hits: CastHit[] = [];
  // The tail of the previous output, so a match split across two events is found.
  let tail = '';
  for await (const { offset, line, cut } of cast.lines()) {
    if (cut) continue;
    let event: CastEvent | undefined;
    try {
      event = castEvent(JSON.parse(line.toString('utf8')));
    } catch {
      continue;
    }
    if (!event || event[1] !== 'o') continue;
    const text = plainText(event[2]);
    const joined = tail + text;
    const lower = joined.toLocaleLowerCase();
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      // A match lying wholly in the carried tail was reported with the previous event.
      if (at + needle.length <= tail.length) continue;
      // The match as the output has it (case kept), with words around it, whitespace runs as one space.
      const { snippet: excerpt, ...place } = snippetAt(joined, at, needle.length, {
        context: 40,
        collapse: true,
        openStart: tail.length > 0,
      });
      hits.push({ t: event[0], offset, excerpt, ...place });
      if (hits.length >= maxHits) return { hits, truncated: true };
    }
    tail = needle.length > 1 ? joined.slice(-(needle.length - 1)) : '';
  }
  return { hits, truncated: false };
}

/** How much of a recording's file is complete: up to the end of its last chained chunk. */
export async function completeSize(castFile: string, finished: boolean): Promise<number> {
  if (finished) return (await fs.stat(castFile).catch(() => ({ size: 0 }))).size;
  const last = await lastChainEntry(`${castFile}.chain`);
  if (last) return last.offset + last.length;
  // No chunk yet: just the header.
  const header = await fs.open(castFile, 'r').catch(() => undefined);
  if (!header) return 0;
  try {
    const index = (await readAt(header, 0, WINDOW)).indexOf(NEWLINE);
    return index >= 0 ? index + 1 : 0;
  } finally {
    await header.close();
  }
}

/**
 * The events of a recording's last `maxBytes` or less, up to the end of its last chained chunk
 * (whole lines only), and that chunk's number: the chain's last entry says where it ends, so this
 * reads a bounded tail at any size. Lines that are not JSON are passed over.
 */
export async function castTail(castFile: string, maxBytes: number): Promise<{ upto: number; events: CastEvent[] }> {
  const last = await lastChainEntry(`${castFile}.chain`);
  if (!last) return { upto: 0, events: [] };
  const cast = await CastFile.open(castFile, last.offset + last.length);
  const events: CastEvent[] = [];
  try {
    for await (const { line, cut } of cast.lines(await cast.lineStartFrom(cast.size - maxBytes))) {
      if (cut) continue;
      try {
        // Output stored as bytes ("b") goes to watchers as the 'o' event it stands for.
        const event = castEvent(JSON.parse(line.toString('utf8')));
        if (event) events.push(event);
      } catch {
        // Not an event to draw.
      }
    }
  } finally {
    await cast.close();
  }
  return { upto: last.seq, events };
}

import { type CastEvent, castEvent } from '@gatehouse/contracts';

/** The first line of an asciicast v2 file. */
export interface CastHeader {
  version: 2;
  width: number;
  height: number;
  /** Unix seconds of the start, when the recorder wrote it. */
  timestamp?: number;
  title?: string;
}

/** One event of the file and where its line lies, so a player can seek by byte. */
export interface PlacedEvent {
  /** Seconds since the start. */
  t: number;
  type: CastEvent[1];
  data: string;
  /** Byte offset of the event's line in the file. */
  offset: number;
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8');

/** Reads the header line; throws a readable error when the file is not asciicast v2. */
export function parseHeader(line: string): CastHeader {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error('The recording does not start with an asciicast header.');
  }
  const header = value as Partial<CastHeader> | null;
  if (!header || header.version !== 2) throw new Error('The recording is not asciicast version 2.');
  if (!Number.isInteger(header.width) || !Number.isInteger(header.height))
    throw new Error('The asciicast header lacks the terminal size.');
  return header as CastHeader;
}

/** The size to draw at: the header's, or 80×24 when a client sent none (ssh -tt without a terminal says 0×0). */
export function headerSize(header: CastHeader): { cols: number; rows: number } {
  const sane = (value: number, fallback: number) => (value > 0 && value <= 2000 ? value : fallback);
  return { cols: sane(header.width, 80), rows: sane(header.height, 24) };
}

/** One event line as [t, type, data]; null for a line that is not one (skipped, not fatal). */
export function parseEventLine(line: string): CastEvent | null {
  if (line.trim() === '') return null;
  try {
    // Output the recorder stored as bytes ([t, "b", base64]) comes back as the 'o' event it stands for.
    const event = castEvent(JSON.parse(line) as unknown);
    if (!event) return null;
    const [t, type, data] = event;
    if (type !== 'o' && type !== 'i' && type !== 'r') return null;
    return [t, type, data];
  } catch {
    return null;
  }
}

/**
 * Turns consecutive byte ranges of a cast file into events. A line cut by a range boundary (and
 * a UTF-8 character cut inside it) is kept until the rest arrives: lines are split on the byte
 * 0x0A, which never occurs inside a multi-byte character, and decoded only when whole.
 */
export class CastStreamParser {
  private carry: Uint8Array = new Uint8Array(0);
  private carryStart: number;
  private skipping: boolean;

  /**
   * @param offset where the first pushed byte lies in the file
   * @param skipPartialLine the first bytes may be the tail of a line: drop up to the first newline
   */
  constructor(offset: number, skipPartialLine = false) {
    this.carryStart = offset;
    this.skipping = skipPartialLine;
  }

  /** The file offset just past the last byte pushed. */
  get position(): number {
    return this.carryStart + this.carry.length;
  }

  /** Bytes held back waiting for the end of their line. */
  get pendingBytes(): number {
    return this.carry.length;
  }

  /** Adds the next bytes; answers the events whose lines are now complete. */
  push(bytes: Uint8Array): PlacedEvent[] {
    const data = this.carry.length === 0 ? bytes : concat(this.carry, bytes);
    const base = this.carryStart;
    let start = 0;
    if (this.skipping) {
      const newline = data.indexOf(NEWLINE);
      if (newline < 0) {
        this.carry = new Uint8Array(0);
        this.carryStart = base + data.length;
        return [];
      }
      start = newline + 1;
      this.skipping = false;
    }
    const events: PlacedEvent[] = [];
    for (let newline = data.indexOf(NEWLINE, start); newline >= 0; newline = data.indexOf(NEWLINE, start)) {
      const event = parseEventLine(decoder.decode(data.subarray(start, newline)));
      if (event) events.push({ t: event[0], type: event[1], data: event[2], offset: base + start });
      start = newline + 1;
    }
    this.carry = data.slice(start);
    this.carryStart = base + start;
    return events;
  }
}

/** Splits the first line (the header) from the bytes after it. */
export function splitHeader(bytes: Uint8Array): { header: CastHeader; eventsStart: number } {
  const newline = bytes.indexOf(NEWLINE);
  if (newline < 0) throw new Error('The recording does not start with an asciicast header.');
  return { header: parseHeader(decoder.decode(bytes.subarray(0, newline))), eventsStart: newline + 1 };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

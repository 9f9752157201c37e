import type { PlacedEvent } from './cast-stream';

/** Speeds the player offers. */
export const SPEEDS = [0.5, 1, 1.5, 2, 4, 8] as const;

/** With idle skipping on, no pause between two events lasts longer than this (recording seconds). */
export const IDLE_CAP_SECONDS = 2;

/**
 * Where playback is after `wallSeconds` of real time: it moves at `speed`, and when the next event
 * lies more than `idleCap` ahead it first jumps so that only `idleCap` of the pause remains.
 */
export function advancePosition(
  position: number,
  wallSeconds: number,
  speed: number,
  nextEventTime: number | undefined,
  idleCap: number | null,
): number {
  let at = position;
  if (idleCap !== null && nextEventTime !== undefined && nextEventTime - at > idleCap) at = nextEventTime - idleCap;
  return at + wallSeconds * speed;
}

/** Removes from the front of `queue` the events due at `position` and answers them in order. */
export function takeDue(queue: PlacedEvent[], position: number): PlacedEvent[] {
  let count = 0;
  while (count < queue.length && (queue[count]?.t ?? Infinity) <= position) count += 1;
  return queue.splice(0, count);
}

/** A terminal operation: output to write, or a new size. */
export type TerminalOp = { kind: 'write'; data: string } | { kind: 'resize'; cols: number; rows: number };

/** Parses a resize event's "COLSxROWS"; null when malformed or absurd. */
export function parseSize(data: string): { cols: number; rows: number } | null {
  const match = /^(\d{1,4})x(\d{1,4})$/.exec(data.trim());
  if (!match) return null;
  const cols = Number(match[1]);
  const rows = Number(match[2]);
  return cols > 0 && rows > 0 ? { cols, rows } : null;
}

/**
 * The operations that render these events: consecutive output joined into one write (so a burst of
 * thousands of small events costs one terminal call), resizes in their place, input left out (the
 * terminal's echo is already in the output).
 */
export function toTerminalOps(events: readonly { type: PlacedEvent['type']; data: string }[]): TerminalOp[] {
  const ops: TerminalOp[] = [];
  let pending = '';
  for (const event of events) {
    if (event.type === 'o') pending += event.data;
    else if (event.type === 'r') {
      const size = parseSize(event.data);
      if (!size) continue;
      if (pending) ops.push({ kind: 'write', data: pending });
      pending = '';
      ops.push({ kind: 'resize', ...size });
    }
  }
  if (pending) ops.push({ kind: 'write', data: pending });
  return ops;
}

/** The clock of a moment in a recording: one format in the console (lib/format). */
export { formatClock } from '../../../lib/format';

/** Reads "1:02:03", "2:03", "75" or "1h2m3s" as seconds; null when it is none of these. */
export function parseClock(text: string): number | null {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const colon = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})$/.exec(value);
  if (colon) return Number(colon[1] ?? 0) * 3600 + Number(colon[2]) * 60 + Number(colon[3]);
  const units = /^(?:(\d+)h)?\s*(?:(\d+)m)?\s*(?:(\d+)s)?$/i.exec(value);
  if (units && (units[1] ?? units[2] ?? units[3]) !== undefined)
    return Number(units[1] ?? 0) * 3600 + Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
  return null;
}

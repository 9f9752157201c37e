/**
 * Bytes of output before a seek point that are replayed to rebuild the screen. A full screen of
 * a busy terminal is a few KiB, so this reaches back far enough for almost any program while
 * staying quick to fetch and to write.
 */
export const CONTEXT_BYTES = 128 * 1024;

/** Where to start reading to rebuild the screen at byte `offset`, and whether that is mid-line. */
export function contextStart(
  offset: number,
  eventsStart: number,
  contextBytes = CONTEXT_BYTES,
): { start: number; skipPartialLine: boolean } {
  const wanted = offset - contextBytes;
  if (wanted <= eventsStart) return { start: eventsStart, skipPartialLine: false };
  // One byte earlier, then up to the first newline: if `wanted` begins a line, that newline is the
  // byte just before it and the line is kept; otherwise the cut line is dropped.
  return { start: wanted - 1, skipPartialLine: true };
}

/** Clamps a requested time into the recording. */
export function clampTime(t: number, duration: number): number {
  if (!Number.isFinite(t) || t < 0) return 0;
  return Math.min(t, duration);
}

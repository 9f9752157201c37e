import { describe, expect, it } from 'vitest';
import { CastStreamParser } from './cast-stream';
import { clampTime, contextStart } from './seek-plan';

const encoder = new TextEncoder();

describe('seek context', () => {
  it('starts at the first event when the seek point is near the start', () => {
    expect(contextStart(5000, 100, 128 * 1024)).toEqual({ start: 100, skipPartialLine: false });
  });

  it('reaches back a window and keeps exactly the whole lines inside it', () => {
    const header = '{"version":2,"width":80,"height":24}\n';
    const lines = Array.from({ length: 50 }, (_, i) => `[${String(i)},"o","line ${String(i)}\\r\\n"]\n`);
    const file = encoder.encode(header + lines.join(''));
    const eventsStart = encoder.encode(header).length;
    const offsets = lines.map((_, i) => eventsStart + encoder.encode(lines.slice(0, i).join('')).length);
    const seekAt = offsets[40] ?? 0;
    for (const window of [10, 100, offsets[40]! - offsets[30]!, offsets[40]! - offsets[30]! + 1]) {
      const { start, skipPartialLine } = contextStart(seekAt, eventsStart, window);
      const parser = new CastStreamParser(start, skipPartialLine);
      const events = parser.push(file.subarray(start, seekAt));
      // Every event whose whole line lies in the window, and none cut.
      const expected = offsets.filter((o) => o >= seekAt - window && o < seekAt);
      expect(events.map((e) => e.offset)).toEqual(expected);
    }
  });

  it('clamps times into the recording', () => {
    expect(clampTime(-3, 100)).toBe(0);
    expect(clampTime(Number.NaN, 100)).toBe(0);
    expect(clampTime(500, 100)).toBe(100);
    expect(clampTime(42, 100)).toBe(42);
  });
});

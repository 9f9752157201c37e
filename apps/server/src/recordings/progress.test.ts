import { describe, expect, it } from 'vitest';
import { COMMIT_SPACING_FACTOR, COMMIT_SPACING_MS, ProgressCommitter } from './progress.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const chunk = (seq: number) => ({ seq, bytes: seq * 100, chainHead: `h${seq}` });

describe('ProgressCommitter', () => {
  it('spaces writes by COMMIT_SPACING_MS, or by COMMIT_SPACING_FACTOR times a slow write, and keeps the newest', async () => {
    for (const writeMs of [0, 30]) {
      const starts: number[] = [];
      const written: number[] = [];
      const committer = new ProgressCommitter(
        chunk(0),
        async (p) => {
          starts.push(performance.now());
          await sleep(writeMs);
          written.push(p.seq);
        },
        () => undefined,
      );
      // A flood: a chunk every 5 ms for 700 ms (longer on a loaded machine, whose timers run late).
      const floodStart = performance.now();
      for (let seq = 1; seq <= 140; seq += 1) {
        committer.chunk(chunk(seq));
        await sleep(5);
      }
      const floodMs = performance.now() - floodStart;
      await committer.settled();
      expect(written.at(-1)).toBe(140);
      expect(committer.committed.seq).toBe(140);
      const spacing = Math.max(COMMIT_SPACING_MS, COMMIT_SPACING_FACTOR * writeMs);
      const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
      // Timers may fire a millisecond early by this clock, and the committer times the write with
      // Date.now(), which may read a 30 ms sleep as 29 ms (then the spacing is 290 ms, not 300).
      const least = Math.max(COMMIT_SPACING_MS, COMMIT_SPACING_FACTOR * Math.max(0, writeMs - 1)) - 5;
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(least);
      // At most one write per spacing over the flood as it really lasted, plus the first and the last.
      expect(written.length).toBeLessThanOrEqual(Math.ceil(floodMs / spacing) + 2);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { watchLoopStalls } from './loop-stall.js';

describe('the main-thread stall report', () => {
  it('says how long the thread was blocked, and nothing while it is not', async () => {
    const seen: number[] = [];
    const stop = watchLoopStalls((ms) => seen.push(ms), 20, 300);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([]);
    const until = Date.now() + 500;
    while (Date.now() < until); // blocks the thread
    await new Promise((r) => setTimeout(r, 60));
    stop();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThanOrEqual(300);
  });
});

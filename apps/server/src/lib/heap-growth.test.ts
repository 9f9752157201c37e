import { describe, expect, it } from 'vitest';
import { tuneHeapGrowth } from './heap-growth.js';

// What the setting buys is measured by the bench (docs/benchmarks.md, "The relay's garbage
// collection": full collections per 128 MiB relayed, 14–16 before and 0–1 after); a unit test cannot
// tell V8's flags back. These tests hold the rule that an operator's own setting wins.
describe('tuneHeapGrowth', () => {
  it("leaves an operator's own --heap-growing-percent on node's command line alone", () => {
    expect(tuneHeapGrowth(['--heap-growing-percent=30'])).toBe(false);
    expect(tuneHeapGrowth(['--heap_growing_percent=30'])).toBe(false);
    expect(tuneHeapGrowth(['--max-old-space-size=512', '--heap-growing-percent', '30'])).toBe(false);
  });

  it('sets the growth when nobody else did', () => {
    expect(tuneHeapGrowth(['--enable-source-maps', '--heap-growing'])).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { tuneHeapGrowth } from './heap-growth.js';

// What the setting buys is measured by the bench (docs/benchmarks.md, "The relay's garbage
// collection": full collections per 128 MiB relayed, 14–16 before and 0–1 after); a unit test cannot
// tell V8's flags back. These tests hold the rule that an operator's own setting wins.
describe('tuneHeapGrowth', () => {
  it("leaves an operator's own --heap-growing-percent alone, given on the command line or in NODE_OPTIONS", () => {
    expect(tuneHeapGrowth({ execArgv: ['--heap-growing-percent=30'], nodeOptions: '' })).toBe(false);
    expect(tuneHeapGrowth({ execArgv: ['--heap_growing_percent=30'], nodeOptions: '' })).toBe(false);
    expect(tuneHeapGrowth({ execArgv: [], nodeOptions: '--max-old-space-size=512 --heap-growing-percent=30' })).toBe(
      false,
    );
  });

  it('sets the growth when nobody else did', () => {
    expect(tuneHeapGrowth({ execArgv: ['--enable-source-maps'], nodeOptions: '--max-old-space-size=512' })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { EMBEDDED_STATEMENT_MS, nextEmbeddedBatch } from './recording-text.repository.js';

// On the embedded database every statement runs on the server's own thread: the text of a long
// session is stored in statements sized to hold that thread about EMBEDDED_STATEMENT_MS each.
describe('the embedded database’s insert batches', () => {
  it('shrink after a slow statement so the next one holds the thread about the target time', () => {
    // 500 lines of base64 took 40 ms: the next batch is a tenth of it.
    expect(nextEmbeddedBatch(500, 40)).toBe(Math.floor((500 * EMBEDDED_STATEMENT_MS) / 40));
    expect(nextEmbeddedBatch(100, 400)).toBe(5);
  });

  it('grow after fast statements, at most fourfold a step and never past 500 rows', () => {
    expect(nextEmbeddedBatch(50, 0.5)).toBe(200);
    expect(nextEmbeddedBatch(200, 0.5)).toBe(500);
    expect(nextEmbeddedBatch(500, 0)).toBe(500);
  });

  it('keep a batch that took the target time', () => {
    expect(nextEmbeddedBatch(120, EMBEDDED_STATEMENT_MS)).toBe(120);
  });
});

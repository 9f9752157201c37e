import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mask, unmask } from './ws-mask.js';

/** RFC 6455 §5.3, byte by byte: what `ws` does without a helper. */
const reference = (data: Buffer, key: Buffer) => Buffer.from(data.map((b, i) => b ^ key[i & 3]!));

describe('the one-file agent’s WebSocket masking', () => {
  it('masks exactly as RFC 6455 says, whatever the lengths, offsets and alignment of the buffers', () => {
    for (const length of [0, 1, 3, 4, 5, 47, 48, 49, 125, 126, 4095, 65_536, 65_539]) {
      for (const sourceShift of [0, 1, 2, 3]) {
        // Frame headers put the payload at offsets 6, 8 and 14, none of them a multiple of 4.
        for (const offset of [0, 1, 6, 8, 14]) {
          const key = randomBytes(4);
          const source = Buffer.concat([randomBytes(sourceShift), randomBytes(length)]).subarray(sourceShift);
          const output = Buffer.alloc(offset + length + 3, 0xaa);
          mask(source, key, output, offset, length);
          expect(output.subarray(offset, offset + length).equals(reference(source, key))).toBe(true);
          // Nothing before or after the payload is touched.
          expect(output.subarray(0, offset).every((b) => b === 0xaa)).toBe(true);
          expect(output.subarray(offset + length).every((b) => b === 0xaa)).toBe(true);
        }
      }
    }
  });

  it('unmasks in place, back to the original bytes, inside a larger buffer', () => {
    for (const length of [0, 2, 32, 33, 1000, 65_537]) {
      const key = randomBytes(4);
      const original = randomBytes(length);
      const pool = Buffer.alloc(length + 10, 0x55);
      const masked = pool.subarray(3, 3 + length);
      reference(original, key).copy(masked);
      unmask(masked, key);
      expect(masked.equals(original)).toBe(true);
      expect(pool.subarray(0, 3).every((b) => b === 0x55)).toBe(true);
      expect(pool.subarray(3 + length).every((b) => b === 0x55)).toBe(true);
    }
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JSON_ESCAPE_WASM } from './json-escape.js';

// The server's types leave WebAssembly out (no DOM library): what this test uses of it.
declare const WebAssembly: {
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
};

const COMPILER = new URL('../../../../scripts/json-escape-wasm.mjs', import.meta.url).href;

/** The escaper on a memory of its own: answers the JSON string (with quotes) of ASCII bytes. */
function escaper(): (bytes: Buffer) => string {
  const memory = new WebAssembly.Memory({ initial: 16 });
  const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(JSON_ESCAPE_WASM, 'base64')), {
    env: { memory },
  });
  const escape = instance.exports.escape as (src: number, len: number, dst: number) => number;
  const view = Buffer.from(memory.buffer);
  const SRC = 500_000; // past the worst case of 64 KiB escaped (six bytes each)
  return (bytes) => {
    bytes.copy(view, SRC);
    // Garbage where the output goes: the escaper must write every byte it answers.
    view.fill(0xee, 0, SRC);
    const end = escape(SRC, bytes.length, 0);
    return '"' + view.toString('latin1', 0, end) + '"';
  };
}

describe('the recorder’s JSON escaper (json-escape.wat) is JSON.stringify’s, byte for byte', () => {
  it('the module in json-escape.ts is json-escape.wat compiled (node scripts/json-escape-wasm.mjs rebuilds it)', async () => {
    const { compileJsonEscape } = (await import(COMPILER)) as { compileJsonEscape: () => Promise<string> };
    expect(await compileJsonEscape()).toBe(JSON_ESCAPE_WASM);
  });

  it('every ASCII byte, alone, at each place around the sixteen-byte steps, and in runs', () => {
    const escape = escaper();
    for (let c = 0; c < 128; c += 1) {
      for (let length = 1; length <= 40; length += 1) {
        for (const at of [0, length >> 1, length - 1]) {
          const bytes = Buffer.alloc(length, 0x61);
          bytes[at] = c;
          expect(escape(bytes)).toBe(JSON.stringify(bytes.toString('latin1')));
        }
      }
    }
    const every = Buffer.from(Array.from({ length: 128 * 3 }, (_, i) => i % 128));
    expect(escape(every)).toBe(JSON.stringify(every.toString('latin1')));
    expect(escape(Buffer.alloc(0))).toBe('""');
  });

  it('random ASCII of every density of escapes, up to 64 KiB', () => {
    const escape = escaper();
    for (let round = 0; round < 300; round += 1) {
      const length = round < 50 ? round : 1 + (randomBytes(2).readUInt16LE() % 65_536) / (round % 2 ? 1 : 16);
      const raw = randomBytes(Math.floor(length));
      const rate = (round % 5) / 4; // from no escapes to only escapes
      const bytes = Buffer.from(raw.map((b) => (b / 256 < rate ? b % 0x20 : 0x20 + (b % 0x60))));
      for (const [i, b] of raw.entries()) if (b % 97 === 0) bytes[i] = b % 2 ? 0x22 : 0x5c;
      expect(escape(bytes)).toBe(JSON.stringify(bytes.toString('latin1')));
    }
  });
});

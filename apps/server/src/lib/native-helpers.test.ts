import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// ADR 0003: the server's WebSockets (socket.io's and the tunnel endpoint's `ws`) unmask what clients
// send with bufferutil's prebuilt native code. Resolved from `ws` itself, as `ws` resolves it.
const requireFromWs = createRequire(createRequire(import.meta.url).resolve('ws'));

describe('the server’s WebSocket helpers', () => {
  it('unmask with bufferutil’s native prebuild, not the JavaScript fallback', () => {
    const root = path.dirname(requireFromWs.resolve('bufferutil'));
    const gypBuild = requireFromWs('node-gyp-build') as (dir: string) => Record<string, unknown>;
    // node-gyp-build throws when no prebuild or build fits this machine (bufferutil then uses fallback.js).
    const native = gypBuild(root);
    expect(Object.keys(native).sort()).toEqual(['mask', 'unmask']);
    const bufferutil = requireFromWs('bufferutil') as { unmask: (b: Buffer, m: Buffer) => void };
    expect(bufferutil.unmask).toBe(native.unmask);
    // And it does what RFC 6455 says: XOR with the 4-byte key, repeating.
    const data = Buffer.from('gatehouse-tunnel-output-0123456789');
    const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
    const masked = Buffer.from(data.map((b, i) => b ^ key[i % 4]!));
    bufferutil.unmask(masked, key);
    expect(masked.toString()).toBe(data.toString());
  });
});

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Random padding for ssh2's packets from a pool (issue 19). ssh2 fills every packet's 4–19 bytes of
 * padding with a `randomFillSync` call of its own: one synchronous OpenSSL job per packet, 4 µs on a
 * quiet machine and several times that under load, which came to a tenth of the gateway thread's busy
 * time in a bulk copy (docs/benchmarks.md, "Packet padding"). Here those bytes come from a pool that
 * one `randomFillSync` call fills 64 KiB at a time: still the same CSPRNG's output, each byte handed
 * out once, a thousandth of the calls. OpenSSH does the same with arc4random_buf.
 *
 * ssh2's crypto module takes `randomFillSync` from Node's crypto when it loads, so this module loads
 * it with the pooled function in place for that moment only: everyone else keeps Node's own. It must
 * therefore run before anything loads ssh2: it is the first import of every module of the server that
 * loads ssh2, and the test suites' setup file (vitest.config.ts); `paddingPooled` says whether it was
 * in time.
 */
const POOL_BYTES = 64 * 1024;
/** Larger requests (none from ssh2's packets) go to Node's crypto as they are. */
const POOLED_MAX = 256;

type RandomFill = <T extends NodeJS.ArrayBufferView>(buffer: T, offset?: number, size?: number) => T;

const nodeCrypto = require('node:crypto') as { randomFillSync: RandomFill };
const original = nodeCrypto.randomFillSync;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let used = POOL_BYTES;
let refills = 0;
let served = 0;

/** randomFillSync's contract (the buffer, filled from offset for size bytes, is answered). */
export const pooledRandomFill: RandomFill = (buffer, offset = 0, size) => {
  const length = size ?? buffer.byteLength - offset;
  if (!Buffer.isBuffer(buffer) || length > POOLED_MAX || offset < 0 || length < 0 || offset + length > buffer.length) {
    return original(buffer, offset, size);
  }
  if (used + length > POOL_BYTES) {
    original(pool);
    used = 0;
    refills += 1;
  }
  pool.copy(buffer, offset, used, used + length);
  used += length;
  served += length;
  return buffer;
};

/** How many times the pool was filled, and how many bytes it handed out (for the tests). */
export function paddingStats(): { refills: number; served: number } {
  return { refills, served };
}

const cryptoModule = require.resolve('ssh2/lib/protocol/crypto.js');
/** Whether ssh2's packets take their padding from the pool (false: ssh2 was loaded before this module). */
export const paddingPooled = !(cryptoModule in require.cache);
if (paddingPooled) {
  nodeCrypto.randomFillSync = pooledRandomFill;
  try {
    require(cryptoModule);
  } finally {
    nodeCrypto.randomFillSync = original;
  }
}

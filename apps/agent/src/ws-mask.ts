/**
 * WebSocket masking for the one-file agent (issue 19). A WebSocket client masks every frame it
 * sends (RFC 6455 §5.3): each payload byte XOR the 4-byte key, repeating. `ws` does that byte by
 * byte in JavaScript unless the `bufferutil` add-on is installed, which the one-file agent cannot
 * carry (scripts/bundle.mjs: no node_modules on a host). The bundle hands `ws` this module in its
 * place: the same two functions `ws` calls on bufferutil, XOR-ing four bytes at a time through
 * DataViews (unaligned access is allowed), about five times faster than the byte loop. `ws` calls
 * them only for payloads of 48 bytes or more (mask) and 32 or more (unmask).
 */

/** Writes `length` bytes of `source`, masked with `mask`, into `output` from `offset`. */
export function mask(source: Buffer, mask: Buffer, output: Buffer, offset: number, length: number): void {
  const key = mask.readInt32LE(0);
  const from = new DataView(source.buffer, source.byteOffset, length);
  const to = new DataView(output.buffer, output.byteOffset + offset, length);
  const words = length & ~3;
  let i = 0;
  for (; i < words; i += 4) to.setInt32(i, from.getInt32(i, true) ^ key, true);
  for (; i < length; i += 1) output[offset + i] = source[i]! ^ mask[i & 3]!;
}

/** Unmasks `buffer` in place with `mask`. */
export function unmask(buffer: Buffer, mask: Buffer): void {
  const key = mask.readInt32LE(0);
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
  const words = buffer.length & ~3;
  let i = 0;
  for (; i < words; i += 4) view.setInt32(i, view.getInt32(i, true) ^ key, true);
  for (; i < buffer.length; i += 1) buffer[i] = buffer[i]! ^ mask[i & 3]!;
}

/** A binary frame: 4-byte big-endian stream id, then the bytes. */
export function encodeData(stream: number, data: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(4 + data.length);
  frame.writeUInt32BE(stream, 0);
  data.copy(frame, 4);
  return frame;
}

/** Splits a binary frame into its stream id and bytes; undefined when it is too short. */
export function decodeData(frame: Buffer): { stream: number; data: Buffer } | undefined {
  if (frame.length < 4) return undefined;
  return { stream: frame.readUInt32BE(0), data: frame.subarray(4) };
}

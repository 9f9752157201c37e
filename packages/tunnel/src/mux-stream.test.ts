import { describe, expect, it } from 'vitest';
import { type MuxLink, MuxStream } from './mux-stream.js';

/** Two streams joined back to back, each frame delivered on a later loop turn, as over a socket. */
function pair() {
  const acks: number[] = [];
  const ends: { a?: MuxStream; b?: MuxStream } = {};
  const later = (f: () => void) => setImmediate(f);
  const link = (to: 'a' | 'b', counted: boolean): MuxLink => ({
    sendData: (_s, data) => later(() => expect(ends[to]!.receive(Buffer.from(data))).toBe(true)),
    sendAck: (_s, bytes) => {
      if (counted) acks.push(bytes);
      later(() => expect(ends[to]!.acknowledge(bytes)).toBe(true));
    },
    sendEnd: () => later(() => ends[to]!.peerEnded()),
    sendClose: () => later(() => ends[to]!.peerClosed()),
  });
  const a = new MuxStream(1, link('b', false));
  const b = new MuxStream(1, link('a', true));
  ends.a = a;
  ends.b = b;
  return { a, b, acks };
}

describe('MuxStream', () => {
  it('acknowledges nothing a paused reader has not taken', async () => {
    const { a, b, acks } = pair();
    b.pause();
    a.write(Buffer.alloc(200 * 1024, 1));
    await new Promise((r) => setTimeout(r, 50));
    expect(acks.reduce((x, y) => x + y, 0)).toBeLessThan(200 * 1024);
    b.resume();
    b.on('data', () => undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(acks.reduce((x, y) => x + y, 0)).toBe(200 * 1024);
  });
});

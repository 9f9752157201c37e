import { describe, expect, it } from 'vitest';
import { ACK_THRESHOLD, type MuxLink, MuxStream } from './mux-stream.js';

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
  it('acknowledges the frames of one loop turn with one ack, and every byte arrives within the window', async () => {
    const { a, b, acks } = pair();
    const payload = Buffer.alloc(4 * 1024 * 1024 + 123, 7);
    const received: Buffer[] = [];
    b.on('data', (d: Buffer) => received.push(d));
    const ended = new Promise((r) => b.once('end', r));
    // Many small writes: several frames reach b in one loop turn.
    for (let at = 0; at < payload.length; at += 4096) a.write(payload.subarray(at, at + 4096));
    a.end();
    await ended;
    await new Promise((r) => setImmediate(r)); // the last ack leaves at the end of the turn
    expect(Buffer.concat(received).equals(payload)).toBe(true);
    const acked = acks.reduce((x, y) => x + y, 0);
    // What is left unacknowledged is less than the threshold: the writer never waited on it.
    expect(acked).toBeLessThanOrEqual(payload.length);
    expect(payload.length - acked).toBeLessThan(ACK_THRESHOLD);
    expect(acks.length).toBeLessThan(payload.length / ACK_THRESHOLD + 2);
  });

  it('sends no ack for typing: keystrokes one loop turn apart are taken without an ack crossing back', async () => {
    const { a, b, acks } = pair();
    let got = 0;
    b.on('data', (d: Buffer) => (got += d.length));
    for (let key = 0; key < 1000; key += 1) {
      a.write(Buffer.from('k'));
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toBe(1000);
    expect(acks).toEqual([]);
  });

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

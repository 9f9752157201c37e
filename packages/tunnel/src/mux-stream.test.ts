import { STREAM_WINDOW, STREAM_WINDOW_OFFERED } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { type MuxLink, MuxStream, RECEIVE_LIMIT, sendWindow } from './mux-stream.js';

/** A link that delivers nothing. */
const nowhere: MuxLink = {
  sendData: () => undefined,
  sendAck: () => undefined,
  sendEnd: () => undefined,
  sendClose: () => undefined,
};

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
  // Both of this version: each named its window when the stream opened.
  const a = new MuxStream(1, link('b', false), STREAM_WINDOW_OFFERED);
  const b = new MuxStream(1, link('a', true), STREAM_WINDOW_OFFERED);
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
    expect(payload.length - acked).toBeLessThan(b.ackThreshold);
    expect(acks.length).toBeLessThan(payload.length / b.ackThreshold + 2);
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

  /** A link that delivers nothing, counting what is sent, with `open` streams on it. */
  function counting(open: () => number) {
    const sent = { bytes: 0 };
    const link: MuxLink = { ...nowhere, sendData: (_s, data) => (sent.bytes += data.length), streamsOpen: open };
    return { link, sent };
  }

  /** Writes until the writer waits, nothing being acknowledged; answers what it sent. */
  async function fill(writer: MuxStream, sent: { bytes: number }): Promise<number> {
    for (let i = 0; i < 1000 && writer.write(Buffer.alloc(16 * 1024)); i += 1);
    await new Promise((r) => setImmediate(r));
    return sent.bytes;
  }

  /** Bytes a writer sends before it waits, with `open` streams on its link. */
  async function sentBeforeWaiting(peerWindow: number | undefined, open: number): Promise<number> {
    const { link, sent } = counting(() => open);
    const writer = new MuxStream(1, link, peerWindow);
    const bytes = await fill(writer, sent);
    writer.destroy();
    return bytes;
  }

  it('sends no more than a peer that names no window takes (an agent or server of an earlier version)', async () => {
    expect(await sentBeforeWaiting(undefined, 1)).toBeLessThanOrEqual(STREAM_WINDOW + 16 * 1024);
    // It is acknowledged at a quarter of that window, as before, so the writer is answered.
    expect(new MuxStream(1, counting(() => 1).link, undefined).ackThreshold).toBe(STREAM_WINDOW / 4);
  });

  it('sends with the window a peer names while alone on its link, never past the one this version offers', async () => {
    expect(await sentBeforeWaiting(STREAM_WINDOW_OFFERED, 1)).toBeGreaterThan(STREAM_WINDOW + 16 * 1024);
    expect(await sentBeforeWaiting(STREAM_WINDOW_OFFERED, 1)).toBeLessThanOrEqual(STREAM_WINDOW_OFFERED + 16 * 1024);
    expect(new MuxStream(1, counting(() => 1).link, STREAM_WINDOW_OFFERED).ackThreshold).toBe(
      STREAM_WINDOW_OFFERED / 4,
    );
    expect(sendWindow(2 ** 31)).toBe(STREAM_WINDOW_OFFERED);
    expect(sendWindow(1)).toBe(STREAM_WINDOW);
    // What an older writer may overshoot by is well inside what a stream holds before it refuses.
    expect(RECEIVE_LIMIT).toBeGreaterThanOrEqual(STREAM_WINDOW_OFFERED + 64 * 1024);
  });

  it('keeps another session’s small frames from queueing behind more than the old window: a shared link sends 256 KiB', async () => {
    expect(await sentBeforeWaiting(STREAM_WINDOW_OFFERED, 2)).toBeLessThanOrEqual(STREAM_WINDOW + 16 * 1024);
    expect(new MuxStream(1, counting(() => 2).link, STREAM_WINDOW_OFFERED).ackThreshold).toBe(STREAM_WINDOW / 4);
    // A link that cannot say how many streams it carries counts as shared.
    expect(
      await (async () => {
        let bytes = 0;
        const writer = new MuxStream(
          1,
          { ...nowhere, sendData: (_s, d) => (bytes += d.length) },
          STREAM_WINDOW_OFFERED,
        );
        await fill(writer, {
          get bytes() {
            return bytes;
          },
        });
        writer.destroy();
        return bytes;
      })(),
    ).toBeLessThanOrEqual(STREAM_WINDOW + 16 * 1024);
  });

  it('holds a lone copy with a full window once a second stream opens, until acknowledgements bring it under 256 KiB', async () => {
    let open = 1;
    const { link, sent } = counting(() => open);
    const writer = new MuxStream(1, link, STREAM_WINDOW_OFFERED);
    const inFlight = await fill(writer, sent);
    expect(inFlight).toBeGreaterThan(STREAM_WINDOW_OFFERED - 16 * 1024);
    let resumed = false;
    writer.once('drain', () => (resumed = true));
    open = 2;
    // Half of it acknowledged: still over the shared window, so the writer goes on waiting.
    writer.acknowledge(inFlight / 2);
    await new Promise((r) => setImmediate(r));
    expect(resumed).toBe(false);
    writer.acknowledge(inFlight / 2 - STREAM_WINDOW / 2);
    await new Promise((r) => setImmediate(r));
    expect(resumed).toBe(true);
    writer.destroy();
  });

  it('carries every byte of a lone stream and of two sharing a link, acknowledged at their windows', async () => {
    for (const open of [1, 2]) {
      const acks: number[] = [];
      const ends: { a?: MuxStream; b?: MuxStream } = {};
      const later = (f: () => void) => setImmediate(f);
      const link = (to: 'a' | 'b'): MuxLink => ({
        sendData: (_s, data) => later(() => expect(ends[to]!.receive(Buffer.from(data))).toBe(true)),
        sendAck: (_s, bytes) => {
          if (to === 'a') acks.push(bytes);
          later(() => expect(ends[to]!.acknowledge(bytes)).toBe(true));
        },
        sendEnd: () => later(() => ends[to]!.peerEnded()),
        sendClose: () => later(() => ends[to]!.peerClosed()),
        streamsOpen: () => open,
      });
      ends.a = new MuxStream(1, link('b'), STREAM_WINDOW_OFFERED);
      ends.b = new MuxStream(1, link('a'), STREAM_WINDOW_OFFERED);
      const payload = Buffer.alloc(8 * 1024 * 1024 + 5, 3);
      const received: Buffer[] = [];
      ends.b.on('data', (d: Buffer) => received.push(d));
      const ended = new Promise((r) => ends.b!.once('end', r));
      ends.a.end(payload);
      await ended;
      expect(Buffer.concat(received).equals(payload)).toBe(true);
      // Acknowledged in pieces of the threshold that goes with the window in use.
      expect(Math.max(...acks)).toBeGreaterThanOrEqual(open === 1 ? STREAM_WINDOW_OFFERED / 4 : STREAM_WINDOW / 4);
      expect(acks.length).toBeLessThan(
        payload.length / (open === 1 ? STREAM_WINDOW_OFFERED / 4 : STREAM_WINDOW / 4) + 2,
      );
    }
  });

  it('refuses bytes past its limit from a far side that ignores the window', () => {
    const reader = new MuxStream(1, nowhere, STREAM_WINDOW_OFFERED);
    reader.pause();
    let taken = 0;
    while (reader.receive(Buffer.alloc(64 * 1024))) taken += 64 * 1024;
    expect(taken).toBe(RECEIVE_LIMIT);
    reader.destroy();
  });
});

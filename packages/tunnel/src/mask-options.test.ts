import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { maskOptions } from './mask-options.js';

describe('maskOptions', () => {
  it('leaves frames unmasked only over TLS and loopback', () => {
    for (const url of [
      'wss://gatehouse.example.com/api/agent/connect',
      'https://gatehouse.example.com',
      'ws://127.0.0.1:8080/x',
      'ws://127.1.2.3/x',
      'ws://localhost:3000/x',
      'ws://[::1]:3000/x',
    ])
      expect(maskOptions(url).generateMask, url).toBeTypeOf('function');
    for (const url of ['ws://gatehouse.example.com/x', 'ws://10.0.0.5:3000/x', 'ws://[2001:db8::1]/x', 'not a url'])
      expect(maskOptions(url), url).toEqual({});
  });
});

describe('a ws client with maskOptions on loopback (real sockets)', () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  /** Sends one binary message through a recording TCP relay; answers what the server got and the raw bytes. */
  async function send(payload: Buffer, options: object): Promise<{ received: Buffer; wire: Buffer }> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    closers.push(() => wss.close());
    const received = new Promise<Buffer>((resolve) =>
      wss.on('connection', (ws) => ws.on('message', (data: Buffer) => resolve(data))),
    );
    const chunks: Buffer[] = [];
    const relay = net.createServer((client) => {
      const upstream = net.connect((wss.address() as net.AddressInfo).port, '127.0.0.1');
      client.on('data', (d: Buffer) => chunks.push(d));
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    closers.push(() => relay.close());
    const url = `ws://127.0.0.1:${(relay.address() as net.AddressInfo).port}/`;
    const ws = new WebSocket(url, { perMessageDeflate: false, ...options });
    closers.push(() => ws.terminate());
    await new Promise((r) => ws.once('open', r));
    ws.send(payload);
    return { received: await received, wire: Buffer.concat(chunks) };
  }

  it('sends the payload as is (zero key), and the server still reads it', async () => {
    const payload = Buffer.from('tunnel bytes that must cross unmasked '.repeat(100));
    const { received, wire } = await send(payload, maskOptions('ws://127.0.0.1/'));
    expect(received.equals(payload)).toBe(true);
    expect(wire.includes(payload)).toBe(true);
  });

  it('masks with a random key without the option (the bytes do not cross as they are)', async () => {
    const payload = Buffer.from('tunnel bytes that must cross unmasked '.repeat(100));
    const { received, wire } = await send(payload, {});
    expect(received.equals(payload)).toBe(true);
    expect(wire.includes(payload)).toBe(false);
  });
});

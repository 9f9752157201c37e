import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { bridge } from './desktop-relay.js';

// The browser's WebSocket to the gateway, bridged to a desktop's RFB socket (a unix socket, as
// x11vnc's) whose reader has stopped reading: a client that keeps asking (noVNC asks for an update
// after each one; a hostile client as fast as it likes) must not pile up a wait per message.
describe('the RFB bridge towards a desktop that stopped reading', () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  it('waits for one drain however many messages arrive meanwhile, and delivers every byte in order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bridge-'));
    const file = path.join(dir, 'rfb.sock');
    // The "x11vnc" side: accepts, reads nothing until told.
    let peer: net.Socket | undefined;
    const accepted = new Promise<net.Socket>((resolve) => {
      const server = net.createServer((s) => {
        s.pause();
        peer = s;
        resolve(s);
      });
      server.listen(file);
      closers.push(() => {
        peer?.destroy();
        server.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
    });
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    closers.push(() => wss.close());
    await new Promise((r) => wss.once('listening', r));
    const bridged = new Promise<net.Socket>((resolve) => {
      wss.on('connection', (ws) => {
        const socket = net.connect(file);
        bridge(ws, socket, () => undefined);
        resolve(socket);
      });
    });
    const browser = new WebSocket(`ws://127.0.0.1:${(wss.address() as net.AddressInfo).port}`);
    closers.push(() => browser.close());
    await new Promise((r) => browser.once('open', r));
    const socket = await bridged;
    const reader = await accepted;

    // 2,000 messages of 4 KiB (8 MiB): far beyond what the kernel holds for an unread unix socket.
    const message = (i: number) => Buffer.alloc(4096, i % 251);
    for (let i = 0; i < 2000; i += 1) browser.send(message(i));
    let most = 0;
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      most = Math.max(most, socket.listenerCount('drain'));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(socket.writableLength, 'the desktop side is behind').toBeGreaterThan(0);
    expect(most, 'waits for the drain at once').toBeLessThanOrEqual(1);

    // The desktop reads again: everything arrives, in order, and the bridge resumes.
    const chunks: Buffer[] = [];
    reader.on('data', (c: Buffer) => chunks.push(c));
    reader.resume();
    const total = 2000 * 4096;
    const until = Date.now() + 20_000;
    while (chunks.reduce((n, c) => n + c.length, 0) < total && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    const all = Buffer.concat(chunks);
    expect(all.length).toBe(total);
    for (let i = 0; i < 2000; i += 1) expect(all[i * 4096], `message ${i}`).toBe(i % 251);
  });
});

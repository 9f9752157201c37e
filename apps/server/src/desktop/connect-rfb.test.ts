import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRfb } from './desktop-session.js';

const VERSION = 'RFB 003.008\n';

/** Reads until `count` bytes arrived (the socket is handed over paused: reading resumes it). */
function read(socket: net.Socket, count: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= count) resolve(got.subarray(0, count).toString('latin1'));
    });
    socket.once('close', () => reject(new Error(`closed after ${got.length} bytes`)));
    socket.resume();
  });
}

describe('connectRfb: a desktop connection is handed on only once the RFB server answered', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-rfb-'));
  const servers: net.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  /** An RFB server on a unix socket that drops its first `drops` connections unanswered, as x11vnc can. */
  function serve(file: string, drops: number): { accepted: () => number; listening: Promise<void> } {
    let accepted = 0;
    const server = net.createServer((socket) => {
      accepted += 1;
      if (accepted <= drops) return socket.destroy();
      socket.write(VERSION);
      socket.on('error', () => undefined);
    });
    servers.push(server);
    return { accepted: () => accepted, listening: new Promise((r) => server.listen(file, () => r())) };
  }

  it('a socket not there yet, then connections dropped before any byte, are tried again: the answer is read first', async () => {
    const file = path.join(dir, 'late.sock');
    let fake: ReturnType<typeof serve> | undefined;
    // The socket appears only after the first tries were refused (ENOENT), as while x11vnc starts.
    setTimeout(() => {
      fake = serve(file, 2);
    }, 120);
    const socket = await connectRfb(file, 5_000);
    expect(fake!.accepted()).toBe(3);
    expect(socket.isPaused()).toBe(true);
    expect(await read(socket, VERSION.length)).toBe(VERSION);
    socket.destroy();
  });

  it('the bytes after the version keep their order behind it', async () => {
    const file = path.join(dir, 'order.sock');
    const server = net.createServer((socket) => {
      socket.write(VERSION);
      setTimeout(() => socket.write('after'), 50);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(file, () => r()));
    const socket = await connectRfb(file, 5_000);
    expect(await read(socket, VERSION.length + 5)).toBe(`${VERSION}after`);
    socket.destroy();
  });

  it('a server that never answers is given up with a reason, within the time allowed', async () => {
    const file = path.join(dir, 'silent.sock');
    const held: net.Socket[] = [];
    const server = net.createServer((socket) => held.push(socket));
    servers.push(server);
    await new Promise<void>((r) => server.listen(file, () => r()));
    const started = Date.now();
    await expect(connectRfb(file, 600)).rejects.toThrow(/did not answer in 600 ms \(1 tries, the last no answer\)/);
    expect(Date.now() - started).toBeLessThan(3_000);
    for (const socket of held) socket.destroy();
  });

  it('a server that drops every connection is given up, having been tried more than once', async () => {
    const file = path.join(dir, 'drops.sock');
    const fake = serve(file, Number.POSITIVE_INFINITY);
    await fake.listening;
    await expect(connectRfb(file, 800)).rejects.toThrow(/the last closed before answering/);
    expect(fake.accepted()).toBeGreaterThan(2);
  });
});

import net from 'node:net';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BURST_TIMING } from '../lib/burst-report.js';
import { eventually } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { HTTP_TIMEOUTS } from './connection-limits.js';

// Headers within 1.5 s (20 s in production), checked every 250 ms; refusals summarised every 500 ms.
Object.assign(HTTP_TIMEOUTS, { headersMs: 1500, checkMs: 250 });
Object.assign(BURST_TIMING, { windowMs: 500 });

/** A raw socket from `from` to the server; collects what it hears. */
function rawSocket(url: string, from: string) {
  const { port } = new URL(url);
  const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: from });
  let heard = '';
  socket.on('data', (chunk: Buffer) => (heard += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const started = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, opened, closed, heard: () => heard };
}

/** One keep-alive request on a raw socket from `from`: answers the socket (left open) once the answer came. */
async function keptAlive(url: string, from: string) {
  const c = rawSocket(url, from);
  await c.opened;
  c.socket.write('GET /api/health HTTP/1.1\r\nHost: gatehouse\r\n\r\n');
  await eventually(
    async () => c.heard(),
    (text) => text.includes('\r\n\r\n'),
  );
  return c;
}

/** GET /api/health over a new socket from `from`: the status line and body. */
async function healthFrom(url: string, from: string): Promise<string> {
  const c = rawSocket(url, from);
  await Promise.race([c.opened, c.closed]);
  c.socket.write('GET /api/health HTTP/1.1\r\nHost: gatehouse\r\nConnection: close\r\n\r\n');
  await c.closed;
  return c.heard();
}

describe.each(DATABASES)('limits on HTTP connections, on %s', (kind) => {
  let server: TestServer;
  const held: net.Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind, { httpConnections: { total: 1000, perAddress: 5 } });
  }, 60_000);
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await server?.stop();
  });

  it('answers a socket that sends nothing with 408 and closes it at the headers deadline', async () => {
    const quiet = rawSocket(server.url, '127.0.0.1');
    const ms = await quiet.closed;
    expect(quiet.heard()).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(6000);
  });

  it('refuses sockets past the cap per address with a 503 that says why, while another address is served', async () => {
    const hogs = await Promise.all([1, 2, 3, 4, 5].map(() => keptAlive(server.url, '127.0.0.5')));
    held.push(...hogs.map((h) => h.socket));
    const refused = await healthFrom(server.url, '127.0.0.5');
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toContain('Too many connections from your address; try again in a few seconds.');
    expect(await healthFrom(server.url, '127.0.0.6')).toMatch(/^HTTP\/1\.1 200 /);
    // Its keep-alive sockets closed, the address is served again.
    for (const h of hogs) h.socket.destroy();
    await Promise.all(hogs.map((h) => h.closed));
    await new Promise((r) => setTimeout(r, 100));
    expect(await healthFrom(server.url, '127.0.0.5')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('500 silent sockets from one address leave the API answering another, and are audited once per burst', async () => {
    const flood = Array.from({ length: 500 }, () => rawSocket(server.url, '127.0.0.8'));
    held.push(...flood.map((f) => f.socket));
    await Promise.all(flood.map((f) => Promise.race([f.opened, f.closed])));
    const started = Date.now();
    expect(await healthFrom(server.url, '127.0.0.6')).toMatch(/^HTTP\/1\.1 200 /);
    expect(Date.now() - started).toBeLessThan(2000);
    // 495 refused at once; the 5 admitted go at the headers deadline.
    const closed = await Promise.all(flood.map((f) => f.closed));
    expect(closed.filter((ms) => ms > 1000).length).toBe(5);
    const rows = await eventually(
      () =>
        server.services.database.query<{ detail: { events: number } }>(
          "SELECT detail FROM audit_log WHERE action = 'http.connections.refused'",
        ),
      (list) => list.reduce((sum, row) => sum + row.detail.events, 0) >= 495,
    );
    expect(rows.length).toBeLessThan(10);
  });

  it('a console socket that signed in no longer counts against its address', async () => {
    const token = await server.login();
    const sockets = [];
    for (let i = 0; i < 8; i += 1) {
      const socket = connectSocket(server.url, {
        auth: { token },
        transports: ['websocket'],
        localAddress: '127.0.0.7',
        reconnection: false,
      } as Parameters<typeof connectSocket>[1]);
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
    }
    // Eight signed-in sockets from one address, past its cap of five, and a request still passes.
    expect(await healthFrom(server.url, '127.0.0.7')).toMatch(/^HTTP\/1\.1 200 /);
    for (const socket of sockets) socket.disconnect();
  });
});

describe.each(DATABASES)('the cap on all HTTP connections, on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { httpConnections: { total: 6, perAddress: 0 } });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('drops a socket past the total at once, and lets one in again when a socket goes', async () => {
    const hogs = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => keptAlive(server.url, `127.0.1.${i}`)));
    const dropped = rawSocket(server.url, '127.0.1.9');
    const ms = await dropped.closed;
    expect(ms).toBeLessThan(2000);
    expect(dropped.heard()).toBe('');
    hogs[0]?.socket.destroy();
    await hogs[0]?.closed;
    await new Promise((r) => setTimeout(r, 100));
    expect(await healthFrom(server.url, '127.0.1.9')).toMatch(/^HTTP\/1\.1 200 /);
    for (const h of hogs) h.socket.destroy();
  });
});

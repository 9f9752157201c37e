import {
  AGENT_CLOSE,
  AGENT_CONNECT_PATH,
  AGENT_CREDENTIAL_HEADER,
  AGENT_ID_HEADER,
  STREAM_WINDOW,
  STREAM_WINDOW_OFFERED,
} from '@gatehouse/contracts';
import { type MuxStream, RECEIVE_LIMIT, encodeData } from '@gatehouse/tunnel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';

type Closed = { code: number; reason: string; at: number };

// A registered agent's own credential in hostile hands: it may send anything over its socket.
describe.each(DATABASES)('an agent socket that floods the server, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    key = (
      await server.call<{ key: string }>('POST', '/api/apikey', {
        token: admin,
        body: { description: 'flood', uses: 20 },
      })
    ).body.key;
  });
  afterAll(async () => server.stop());

  /** Enrols a host and opens its agent socket, hello sent and its config received. */
  const connect = async (hostname: string) => {
    const enrolled = await server.call<{ id: string; credential: string }>('POST', '/api/agent/register', {
      body: { key, hostname, os: 1, version: '2.0.0' },
    });
    expect(enrolled.status).toBe(201);
    const { id, credential } = enrolled.body;
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
      headers: { [AGENT_ID_HEADER]: id, [AGENT_CREDENTIAL_HEADER]: credential },
    });
    const messages: { t: string; stream?: number; port?: number; window?: number }[] = [];
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (!binary) messages.push(JSON.parse(data.toString('utf8')) as { t: string });
    });
    const closed = new Promise<Closed>((resolve) =>
      ws.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString(), at: Date.now() })),
    );
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ t: 'hello', hostname, os: 1, version: '2.0.0' }));
    await until(() => messages.some((m) => m.t === 'config'));
    return { id, credential, ws, messages, closed };
  };

  const floodRows = async (id: string) =>
    server.services.database.query<{ detail: { why: string; kind: string; counts: Record<string, number> } }>(
      `SELECT detail FROM audit_log WHERE action = 'agent.flood' AND target = $1`,
      [id],
    );

  const state = async (id: string) =>
    (
      await server.call<{ agents: { id: string; state: string }[] }>('GET', '/api/agent', { token: admin })
    ).body.agents.find((a) => a.id === id)?.state;

  it('closes an agent sending 10,000 hellos within seconds, with a reason and one audit entry, while the API answers', async () => {
    const agent = await connect('hello-flood');
    // A cheap API call, one after another: for a second before the flood, then while it lasts.
    const timed = async (into: number[]) => {
      const started = performance.now();
      const res = await server.call('GET', '/api/agent', { token: admin });
      into.push(performance.now() - started);
      expect(res.status).toBe(200);
    };
    const baseline: number[] = [];
    for (const until = Date.now() + 1000; Date.now() < until;) await timed(baseline);
    const latencies: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) await timed(latencies);
    })();
    const started = Date.now();
    const hello = JSON.stringify({ t: 'hello', hostname: 'hello-flood', os: 1, version: '2.0.0' });
    for (let i = 0; i < 10_000; i += 1) agent.ws.send(hello);
    const closed = await agent.closed;
    await new Promise((r) => setTimeout(r, 1000)); // the API keeps being asked after the close
    flooding = false;
    await probe;

    expect(closed.code).toBe(AGENT_CLOSE.FLOODED);
    expect(closed.reason).toMatch(/too many hello messages/);
    expect(closed.at - started).toBeLessThan(3000);
    // A few repeats were applied again (a config answer each), no more.
    expect(agent.messages.filter((m) => m.t === 'config').length).toBeLessThanOrEqual(4);
    const rows = await until(
      () => floodRows(agent.id),
      (r) => r.length > 0,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await floodRows(agent.id)).toHaveLength(1);
    expect(rows[0]?.detail).toMatchObject({ kind: 'hello', counts: { hello: 5 } });
    // Not one row per message: the agent's whole trail is a handful of entries.
    const trail = await server.services.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_log WHERE target = $1',
      [agent.id],
    );
    expect(trail[0]?.n).toBeLessThanOrEqual(5);
    const p99 = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))] ?? Infinity;
    console.info(
      `[${kind}] 10,000 hellos: closed after ${closed.at - started} ms; API p99 ${p99(latencies).toFixed(0)} ms ` +
        `over ${latencies.length} calls (before the flood: ${p99(baseline).toFixed(0)} ms over ${baseline.length})`,
    );
    expect(latencies.length).toBeGreaterThan(5);
    expect(p99(latencies)).toBeLessThan(1500);
    expect(await state(agent.id)).toBe('disconnected');
  });

  it('closes an agent sending frames for streams that were never opened', async () => {
    const agent = await connect('ghost-streams');
    for (let i = 0; i < 5000; i += 1) agent.ws.send(encodeData(1000 + i, Buffer.from('x')));
    const closed = await agent.closed;
    expect(closed.code).toBe(AGENT_CLOSE.FLOODED);
    expect(closed.reason).toMatch(/too many unknown-stream messages/);
    const rows = await until(
      () => floodRows(agent.id),
      (r) => r.length > 0,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.detail.counts['unknown-stream']).toBeGreaterThan(1000);
  });

  it('closes an agent that sends past a stream’s window, and lets one within it through', async () => {
    const agent = await connect('window-breaker');
    await server.call('POST', `/api/agent/${agent.id}/config`, { token: admin, body: { whitelist: [22] } });
    // The server asks for a stream; the forged agent accepts it.
    const opening = server.services.hub.openStream(agent.id, 22);
    const open = await until(
      () => agent.messages.find((m) => m.t === 'open'),
      (m) => m !== undefined,
    );
    // The server names the window it takes; this agent answers as one of an earlier version, naming
    // none, so the server sends to it with the old window.
    expect(open?.window).toBe(STREAM_WINDOW_OFFERED);
    agent.ws.send(JSON.stringify({ t: 'opened', stream: open?.stream }));
    const stream = await opening;
    expect((stream as unknown as MuxStream).window).toBe(STREAM_WINDOW);
    // Within the window: 200 KiB arrives whole and nothing closes.
    const received: Buffer[] = [];
    stream.on('data', (c: Buffer) => received.push(c));
    for (let i = 0; i < 25; i += 1) agent.ws.send(encodeData(open!.stream!, Buffer.alloc(8 * 1024, i)));
    await until(() => Buffer.concat(received).length === 200 * 1024);
    // Now nobody reads, so nothing more is acknowledged, and the agent sends past the limit regardless.
    stream.pause();
    for (let i = 0; i < RECEIVE_LIMIT / (64 * 1024) + 16; i += 1) {
      agent.ws.send(encodeData(open!.stream!, Buffer.alloc(64 * 1024)));
    }
    const closed = await agent.closed;
    expect(closed.code).toBe(AGENT_CLOSE.FLOODED);
    expect(closed.reason).toMatch(/past the stream window/);
    const rows = await until(
      () => floodRows(agent.id),
      (r) => r.length > 0,
    );
    expect(rows[0]?.detail.kind).toBe('data');
  });

  it('sends no more than the window this version offers, whatever window a forged agent names, and the old one while streams share the socket', async () => {
    const agent = await connect('window-greed');
    await server.call('POST', `/api/agent/${agent.id}/config`, { token: admin, body: { whitelist: [22] } });
    const opening = server.services.hub.openStream(agent.id, 22);
    const open = await until(
      () => agent.messages.find((m) => m.t === 'open'),
      (m) => m !== undefined,
    );
    agent.ws.send(JSON.stringify({ t: 'opened', stream: open?.stream, window: 2 ** 31 }));
    const stream = (await opening) as unknown as MuxStream;
    expect(stream.window).toBe(STREAM_WINDOW_OFFERED);
    // Nothing is acknowledged: the server's writes wait once the window is in flight.
    let written = 0;
    while (stream.write(Buffer.alloc(64 * 1024)) && written < 64 * 1024 * 1024) written += 64 * 1024;
    expect(written).toBeLessThanOrEqual(STREAM_WINDOW_OFFERED);
    expect(stream.sendLimit).toBe(STREAM_WINDOW_OFFERED);
    // A second session on the same agent: both streams now send with the old window, so neither's
    // keystrokes queue behind a mebibyte of the other's output.
    const second = server.services.hub.openStream(agent.id, 22);
    const open2 = await until(
      () => agent.messages.filter((m) => m.t === 'open')[1],
      (m) => m !== undefined,
    );
    agent.ws.send(JSON.stringify({ t: 'opened', stream: open2?.stream, window: STREAM_WINDOW_OFFERED }));
    const other = (await second) as unknown as MuxStream;
    expect(stream.sendLimit).toBe(STREAM_WINDOW);
    expect(other.sendLimit).toBe(STREAM_WINDOW);
    other.destroy();
    expect(stream.sendLimit).toBe(STREAM_WINDOW_OFFERED);
    stream.destroy();
    agent.ws.close();
  });

  it('refuses an agent that reconnects more than 30 times a minute with 429 (a flooder cannot start over at once)', async () => {
    const agent = await connect('reconnect-storm');
    agent.ws.close();
    const enrolled = await server.services.database.query<{ id: string }>(
      `SELECT id FROM agents WHERE hostname = 'reconnect-storm'`,
    );
    expect(enrolled[0]?.id).toBe(agent.id);
    const credential = agent.credential;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
        headers: { [AGENT_ID_HEADER]: agent.id, [AGENT_CREDENTIAL_HEADER]: credential },
      });
      statuses.push(
        await new Promise<number>((resolve) => {
          ws.once('open', () => {
            ws.close();
            resolve(101);
          });
          ws.once('unexpected-response', (_req, res) => {
            resolve(res.statusCode ?? 0);
            res.resume();
          });
        }),
      );
    }
    // The first connection above counted too: 29 more are let in, then refused.
    expect(statuses.filter((s) => s === 101)).toHaveLength(29);
    expect(statuses.slice(29)).toEqual([429, 429]);
  });

  it('keeps an agent that behaves: acknowledgements of what it received and a repeated hello are fine', async () => {
    const agent = await connect('well-behaved');
    agent.ws.send(JSON.stringify({ t: 'hello', hostname: 'well-behaved', os: 1, version: '2.0.1' }));
    await until(() => agent.messages.filter((m) => m.t === 'config').length === 2);
    for (let i = 0; i < 200; i += 1) agent.ws.send(JSON.stringify({ t: 'close', stream: 424_242 }));
    await new Promise((r) => setTimeout(r, 500));
    expect(agent.ws.readyState).toBe(WebSocket.OPEN);
    expect(await state(agent.id)).toBe('connected');
    expect(await floodRows(agent.id)).toHaveLength(0);
    agent.ws.close();
  });
});

/** Polls until the check passes (10 s at most). */
async function until<T>(check: () => T | Promise<T>, ok: (value: T) => boolean = Boolean): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (ok(value)) return value;
    if (Date.now() - started > 10_000) throw new Error(`not reached within 10 s: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

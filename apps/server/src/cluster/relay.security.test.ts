import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { type RunningServer, startServer } from '../server.js';
import { ADMIN, DATABASES, openTestDatabase, testConfig } from '../test/harness.js';
import { api } from '../test/server-process.js';
import { RELAY_HEADERS, RELAY_PATH, type RelayRequest, signRelay } from './relay-auth.js';

const SECRET = `relay-secret-${randomBytes(16).toString('hex')}`;

/**
 * Opens a relay WebSocket; answers the upgrade's status (101 when opened), the socket, what it
 * received (bytes, and text messages) and when it closed, all heard from the start.
 */
function dial(
  url: string,
  signed: { headers: Record<string, string>; query: string },
): Promise<{
  status: number;
  ws: WebSocket;
  body: string;
  bytes: Buffer[];
  texts: string[];
  closed: Promise<unknown>;
}> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${RELAY_PATH}?${signed.query}`, { headers: signed.headers });
  const bytes: Buffer[] = [];
  const texts: string[] = [];
  ws.on('message', (data: Buffer, binary: boolean) => (binary ? bytes.push(data) : texts.push(data.toString())));
  const closed = new Promise((resolve) => ws.once('close', resolve));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ status: 101, ws, body: '', bytes, texts, closed }));
    ws.once('unexpected-response', (request, response) => {
      let body = '';
      response.on('data', (c: Buffer) => (body += c.toString()));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, ws, body, bytes, texts, closed });
      });
    });
    ws.once('error', reject);
  });
}

// The relay between instances (ADR 0007) serves only requests signed with the cluster secret,
// fresh, never seen before, from a running instance, for a port on the host's whitelist. Each
// refusal is logged by its reason, never with the signature or the secret.
describe.each(DATABASES)('the relay between instances refuses whoever is not an instance, on %s', (kind) => {
  let server: RunningServer;
  let drop: (() => Promise<void>) | undefined;
  let agent: AgentProcess;
  let agentId: string;
  let echo: net.Server;
  let echoPort: number;
  let logged = '';
  const key = Buffer.from(SECRET, 'utf8');
  const fields = (over: Partial<RelayRequest> = {}) => ({
    action: 'stream' as const,
    source: server.services.instances.id,
    target: server.services.instances.id,
    agentId,
    port: echoPort,
    ...over,
  });

  beforeAll(async () => {
    // Echoes what it reads; a connection that sends "abort" is reset (an abrupt end, as a crash).
    echo = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', (data: Buffer) => {
        if (data.toString().includes('abort')) socket.resetAndDestroy();
        else if (!socket.write(data)) socket.pause();
      });
      socket.on('drain', () => socket.resume());
      socket.on('end', () => socket.end());
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as net.AddressInfo).port;
    const opened = await openTestDatabase(kind);
    drop = opened.drop;
    // The relay's log lines are read here; the others are dropped.
    const logOut = { write: (line: string) => (line.includes('"component":"cluster-relay"') ? (logged += line) : '') };
    server = await startServer(testConfig({ clusterSecret: SECRET, logLevel: 'warn' }), {
      database: opened.database,
      logOut,
    });
    const admin = (
      await api<{ response: { user: { authentication_token: string } } }>(
        server.url,
        'POST',
        '/api/login?include_auth_token',
        undefined,
        ADMIN,
      )
    ).response.user.authentication_token;
    const { key: enrolKey } = await api<{ key: string }>(server.url, 'POST', '/api/apikey', admin, {
      description: 'relay',
    });
    agent = startAgent({ server: server.url, key: enrolKey, hostname: 'relay-01' });
    agentId = (await eventually(
      async () =>
        (await api<{ agents: { id: string; connected: boolean }[] }>(server.url, 'GET', '/api/agent', admin)).agents[0],
      (a) => a?.connected === true,
    ))!.id;
    await api(server.url, 'POST', `/api/agent/${agentId}/config`, admin, { whitelist: [echoPort] });
  }, 60_000);

  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    await server?.close();
    await drop?.();
    echo?.close();
  });

  it('serves a signed relay: bytes both ways, then half-close as TCP does', async () => {
    const { status, ws, bytes, texts, closed } = await dial(server.url, signRelay(key, fields()));
    expect(status).toBe(101);
    ws.send(Buffer.from('ping through the relay'));
    await eventually(
      async () => Buffer.concat(bytes).toString(),
      (text) => text === 'ping through the relay',
    );
    // Our half-close reaches the host (the echo server ends), whose end comes back; then it closes.
    ws.send('end');
    await eventually(
      async () => texts,
      (t) => t.includes('end'),
    );
    await closed;
  }, 20_000);

  it('refuses no signature, a forged one, a stale one, a replay, a forged agent, another target and an unknown instance', async () => {
    const unsigned = signRelay(key, fields());
    delete unsigned.headers[RELAY_HEADERS.signature];
    const wrongKey = signRelay(randomBytes(32), fields());
    const stale = signRelay(key, fields({ time: Date.now() - 60_000 }));
    const replayed = signRelay(key, fields());
    const forgedAgent = signRelay(key, fields());
    forgedAgent.query = forgedAgent.query.replace(agentId, randomUUID());
    const forgedPort = signRelay(key, fields());
    forgedPort.query = forgedPort.query.replace(`port=${echoPort}`, 'port=22');
    const elsewhere = signRelay(key, fields({ target: randomUUID() }));
    const stranger = signRelay(key, fields({ source: randomUUID() }));

    const first = await dial(server.url, replayed);
    expect(first.status).toBe(101);
    first.ws.close();
    const cases = [
      ['no signature', unsigned, 401],
      ['bad signature', wrongKey, 401],
      ['stale timestamp', stale, 401],
      ['replayed nonce', replayed, 401],
      ['bad signature', forgedAgent, 401],
      ['bad signature', forgedPort, 401],
      ['addressed to another instance', elsewhere, 421],
      ['unknown or gone source instance', stranger, 401],
    ] as const;
    for (const [reason, signed, expected] of cases) {
      const answer = await dial(server.url, signed);
      expect(answer.status, reason).toBe(expected);
      expect(answer.body).not.toContain(SECRET);
      expect(logged).toContain(`relay request refused: ${reason}`);
    }
    // Logged by reason only: neither the secret nor any signature sent.
    expect(logged).not.toContain(SECRET);
    for (const [, signed] of cases) {
      const signature = signed.headers[RELAY_HEADERS.signature];
      if (signature) expect(logged).not.toContain(signature);
    }
  }, 20_000);

  it('re-checks the whitelist on the holding instance: a signed request for another port is refused', async () => {
    const answer = await dial(server.url, signRelay(key, fields({ port: 22 })));
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ message: 'Port 22 is not in the whitelist of relay-01.' });
    expect(logged).toContain('relayed stream refused');
    const config = await dial(server.url, signRelay(key, fields({ action: 'config', port: 0, agentId: randomUUID() })));
    // A config push for an agent not held here: answered, not applied.
    expect(config.status).toBe(101);
    await config.closed;
    expect(config.texts.map((t) => JSON.parse(t) as unknown)).toEqual([{ applied: false }]);
  }, 20_000);

  it('a relayed stream behaves as a local one: backpressure, half-close, and an abort is an error', async () => {
    const holder = { instanceId: server.services.instances.id, url: server.url };
    const stream = await server.services.hub.relay!.openStream(holder, agentId, echoPort);
    // Nobody reads the echo: the writer is held back end to end well before 64 MiB.
    const chunk = Buffer.alloc(64 * 1024, 7);
    let written = 0;
    for (;;) {
      if (stream.write(chunk)) {
        written += chunk.length;
        if (written >= 64 * 1024 * 1024) break;
        continue;
      }
      written += chunk.length;
      const drained = await Promise.race([
        new Promise<boolean>((resolve) => stream.once('drain', () => resolve(true))),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1500)),
      ]);
      if (!drained) break;
    }
    expect(written).toBeLessThan(64 * 1024 * 1024);
    // Reading lets everything through; our half-close comes back as the end of the echo.
    let read = 0;
    stream.on('data', (data: Buffer) => (read += data.length));
    const ended = new Promise((resolve) => stream.once('end', resolve));
    stream.end();
    await ended;
    expect(read).toBe(written);

    const doomed = await server.services.hub.relay!.openStream(holder, agentId, echoPort);
    const failed = new Promise<Error>((resolve) => doomed.once('error', resolve));
    doomed.resume();
    doomed.write('abort');
    expect((await failed).message).toMatch(/closed/);
  }, 60_000);
});

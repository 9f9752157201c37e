import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { freePort } from '../test/server-process.js';
import { GATEWAY_DRAINING } from '../gateway/ssh-gateway.js';
import { READINESS_PROBE_MAX_AGE_MS } from './readiness.js';

/** A WebSocket upgrade to `pathName`: the status and body it is answered with (101 when taken). */
function upgrade(url: string, pathName: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${pathName}`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('readiness-test-k').toString('base64'),
      },
    });
    request.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    request.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101, body: '' });
    });
    request.on('error', reject);
    request.end();
  });
}

describe.each(DATABASES)('liveness and readiness (%s)', (kind) => {
  let server: TestServer;
  /** Queries the readiness probe sent to the database. */
  let probes = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { redisUrl: process.env.REDIS_URL });
    const { database } = server.services;
    const query = database.query.bind(database);
    database.query = (statement: string, params?: unknown[]) => {
      if (statement.includes('FROM schema_migrations')) probes += 1;
      return query(statement, params);
    };
  });

  afterAll(() => server?.stop());

  it('answers ready with each check, Redis when REDIS_URL is set', async () => {
    const live = await server.call('GET', '/api/health/live');
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await server.call('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: {
        database: 'ok',
        migrations: 'ok',
        ssh: 'ok',
        redis: process.env.REDIS_URL ? 'ok' : 'not-configured',
        draining: false,
      },
    });
    expect((await server.call('GET', '/api/health')).body).toEqual({ status: 'ok', database: kind });
  });

  it('asks the database at most once a second, however many probes come', async () => {
    await new Promise((r) => setTimeout(r, READINESS_PROBE_MAX_AGE_MS + 50));
    const before = probes;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => server.call('GET', i % 2 ? '/api/health/ready' : '/api/health')),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const seconds = Math.ceil((Date.now() - started) / READINESS_PROBE_MAX_AGE_MS);
    expect(probes - before).toBeGreaterThanOrEqual(1);
    expect(probes - before).toBeLessThanOrEqual(seconds);
  });

  it('is not ready while a migration this build knows is missing, and says which check failed', async () => {
    const { database } = server.services;
    const [last] = await database.query<{ id: string; applied_at: Date }>(
      'SELECT id, applied_at FROM schema_migrations ORDER BY id DESC LIMIT 1',
    );
    await database.query('DELETE FROM schema_migrations WHERE id = $1', [last!.id]);
    try {
      await new Promise((r) => setTimeout(r, READINESS_PROBE_MAX_AGE_MS + 50));
      const answer = await server.call('GET', '/api/health/ready');
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({
        statusCode: 503,
        status: 'not-ready',
        message: 'Not ready: failed: migrations.',
        checks: { database: 'ok', migrations: 'pending', draining: false },
        failed: ['migrations'],
      });
    } finally {
      await database.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [
        last!.id,
        last!.applied_at,
      ]);
    }
    await new Promise((r) => setTimeout(r, READINESS_PROBE_MAX_AGE_MS + 50));
    expect((await server.call('GET', '/api/health/ready')).status).toBe(200);
  });

  it('is not ready, without asking the database, while the database is known away', async () => {
    const { health } = server.services.database;
    const before = probes;
    health.failed(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const answer = await server.call('GET', '/api/health/ready');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      checks: { database: 'failed', migrations: 'unknown' },
      failed: ['database', 'migrations'],
    });
    expect((await server.call('GET', '/api/health')).body).toMatchObject({ status: 'degraded' });
    expect(probes).toBe(before);
    // db/health.ts probes it again with its backoff and finds it there: ready again.
    await expect.poll(async () => (await server.call('GET', '/api/health/ready')).status, { timeout: 5000 }).toBe(200);
  });

  it('draining: 503 at once and no new tunnels or agents, while liveness and the API still answer', async () => {
    // A client that connected but has not logged in yet is told, and closed.
    const pending = net.connect(server.sshPort, '127.0.0.1');
    let heard = '';
    pending.on('data', (c: Buffer) => (heard += c.toString('latin1')));
    const pendingClosed = new Promise<void>((resolve) => pending.once('close', () => resolve()));
    await expect.poll(() => heard, { timeout: 5000 }).toMatch(/^SSH-2\.0-/);
    const drained = await server.drain(0);
    await pendingClosed;
    expect(heard).toContain(GATEWAY_DRAINING);
    expect(drained).toMatchObject({ ended: { sessions: 0, tunnels: 0 } });
    const answer = await server.call('GET', '/api/health/ready');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      message: 'Not ready: this instance is shutting down.',
      checks: { draining: true, ssh: 'failed' },
      failed: expect.arrayContaining(['ssh', 'draining']) as unknown,
    });
    expect((await server.call('GET', '/api/health/live')).status).toBe(200);
    expect((await server.call('GET', '/api/health')).body).toMatchObject({ status: 'ok' });
    const tunnel = await upgrade(server.url, '/api/tunnel/connect?definition=00000000-0000-4000-8000-000000000000');
    expect(tunnel.status).toBe(503);
    expect(tunnel.body).toContain('shutting down');
    const agent = await upgrade(server.url, '/api/agent/connect');
    expect(agent.status).toBe(503);
    expect(agent.body).toContain('shutting down');
  });
});

/** A redis-server of this test's own on a free loopback port (never the machine's shared one). */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    (up) => up,
  );
  return child;
}

describe.runIf(spawnSync('redis-server', ['--version']).status === 0)('readiness while Redis goes away', () => {
  let server: TestServer | undefined;
  let redis: ChildProcess | undefined;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    server = await startTestServer('pglite', { redisUrl: `redis://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    redis?.kill('SIGKILL');
    await server?.stop();
  });

  it('answers 503 naming redis while it is away, and ready again once it is back', async () => {
    expect((await server!.call('GET', '/api/health/ready')).body).toMatchObject({ checks: { redis: 'ok' } });
    redis!.kill('SIGKILL');
    await expect
      .poll(async () => (await server!.call('GET', '/api/health/ready')).status, { timeout: 10_000 })
      .toBe(503);
    expect((await server!.call('GET', '/api/health/ready')).body).toMatchObject({
      checks: { redis: 'failed', database: 'ok', draining: false },
      failed: ['redis'],
    });
    // Liveness does not follow a dependency: the process is fine.
    expect((await server!.call('GET', '/api/health/live')).status).toBe(200);
    redis = await startRedis(port);
    await expect
      .poll(async () => (await server!.call('GET', '/api/health/ready')).status, { timeout: 15_000 })
      .toBe(200);
  });

  it('stops promptly while Redis is away (never waits for it to come back)', async () => {
    redis!.kill('SIGKILL');
    await expect
      .poll(async () => (await server!.call('GET', '/api/health/ready')).status, { timeout: 10_000 })
      .toBe(503);
    const stopping = Date.now();
    const stopped = server!;
    server = undefined;
    await stopped.drain(0);
    await stopped.stop();
    expect(Date.now() - stopping).toBeLessThan(8000);
  });
});

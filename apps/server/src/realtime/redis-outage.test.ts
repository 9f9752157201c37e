import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server.js';
import { startInstances } from '../test/harness.js';
import { freePort } from '../test/server-process.js';
import { askInstances } from './console-sockets.js';
import { redisReconnectDelay } from './redis-clients.js';

/**
 * Redis as a dependency that fails (issue 15): two real instances on PostgreSQL share a real
 * redis-server this test starts on a free loopback port (never the machine's shared one), kills
 * with SIGKILL and starts again. Nothing may end either process (an 'error' event without a
 * listener would), and what crosses instances works again within seconds of Redis's return.
 */

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return child;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many other instances answer a request through Redis (0 when it is away). */
async function answeringInstances(server: RunningServer): Promise<number> {
  return (await askInstances(server.io, 'gatehouse:watch', 'no-such-recording')).length;
}

describe.runIf(process.env.TEST_DATABASE_URL)('Redis as a dependency that fails', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let instances: Awaited<ReturnType<typeof startInstances>>;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    instances = await startInstances(2, { redisUrl: `redis://127.0.0.1:${port}` });
  }, 60_000);

  afterAll(async () => {
    await instances?.stop();
    redis?.kill('SIGKILL');
  });

  it('never ends a server when Redis dies, and links the instances again within seconds of its return', async () => {
    const [a, b] = instances.servers;
    if (!a || !b) throw new Error('two instances expected');
    expect(await answeringInstances(a)).toBe(1);

    redis?.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 1500));
    // Both instances still serve their own API, and a request across instances answers (nobody) in bounded time.
    for (const s of [a, b]) expect((await fetch(`${s.url}/api/settings/public`)).status).toBe(200);
    const started = Date.now();
    expect(await answeringInstances(a)).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await a.services.recordings.requestTerminate('no-such-recording', 'test')).toBe(false);

    redis = await startRedis(port);
    const back = Date.now();
    for (;;) {
      if ((await answeringInstances(a)) === 1) break;
      if (Date.now() - back > 15_000) throw new Error('the instances did not link again within 15 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(Date.now() - back).toBeLessThan(15_000);
  }, 60_000);

  it('reconnects with a jittered delay that never exceeds 5 s', () => {
    expect(redisReconnectDelay(0, () => 0)).toBe(50);
    expect(redisReconnectDelay(3, () => 1)).toBe(800);
    for (const retries of [10, 20, 1000]) {
      expect(redisReconnectDelay(retries, () => 1)).toBe(5000);
      expect(redisReconnectDelay(retries, () => 0)).toBe(2500);
    }
  });
});

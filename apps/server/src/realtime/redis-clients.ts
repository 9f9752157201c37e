import type { FastifyBaseLogger } from 'fastify';
import type { createClient as CreateClient } from 'redis';

// The redis client is loaded only by an instance given REDIS_URL (one alone never needs it: about
// 25 MiB of resident memory at start, docs/benchmarks.md "One instance's scale").
type RedisModule = { createClient: typeof CreateClient };

/** Reconnection to Redis: from 100 ms, doubling, never more than 5 s apart, with jitter. */
export function redisReconnectDelay(retries: number, random: () => number = Math.random): number {
  const ceiling = Math.min(5000, 100 * 2 ** Math.min(retries, 16));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function redisClient(redis: RedisModule, url: string) {
  return redis.createClient({
    url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries: number) => redisReconnectDelay(retries), connectTimeout: 5000 },
  });
}

export type RedisClient = ReturnType<typeof redisClient>;

/**
 * The publishing and subscribing clients of the socket.io Redis adapter, made to survive Redis
 * going away: every client has an error listener (without one, Node ends the process at the first
 * dropped connection), reconnects with a short capped backoff, and does not queue commands while
 * disconnected (a queue would grow with every live chunk for as long as Redis is away). While it is
 * away, what crosses instances (live view of a session on another instance, ending it from there)
 * fails with the usual "not found" answers; sessions, recordings and this instance's sockets go on.
 * The outage and the return are logged once each.
 */
export async function connectRedisPair(
  url: string,
  log: FastifyBaseLogger,
): Promise<{ pub: RedisClient; sub: RedisClient }> {
  let away = false;
  const redis: RedisModule = await import('redis');
  const pub = redisClient(redis, url);
  const sub = redisClient(redis, url);
  for (const client of [pub, sub]) {
    client.on('error', (err: unknown) => {
      if (away) return;
      away = true;
      log.warn({ err }, 'Redis unreachable: live view and termination across instances pause; reconnecting');
    });
    client.on('ready', () => {
      if (!away) return;
      away = false;
      log.info('Redis reachable again');
    });
  }
  await Promise.all([pub.connect(), sub.connect()]);
  // The adapter publishes without awaiting: a publish refused while Redis is away must not become
  // an unhandled rejection per chunk.
  const publish = pub.publish.bind(pub);
  Object.defineProperty(pub, 'publish', {
    configurable: true,
    value: (...args: Parameters<typeof publish>) => publish(...args).catch(() => 0),
  });
  return { pub, sub };
}

/**
 * Closes a client at shutdown without waiting on a Redis that is away: QUIT waits for Redis to
 * come back (the server's stop would hang until its deadline), so a client not connected is
 * destroyed, and one whose QUIT is not answered within 2 s too.
 */
export async function closeRedisClient(client: RedisClient): Promise<void> {
  if (client.isReady) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      client.quit().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, 2000))),
    ]);
    clearTimeout(timer);
  }
  if (client.isOpen) client.destroy();
}

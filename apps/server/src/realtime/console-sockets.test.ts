import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server.js';
import { ADMIN, DATABASES, type TestServer, startInstances, startTestServer } from '../test/harness.js';

function connect(url: string, token: string | undefined): Socket {
  return connectSocket(url, { auth: token ? { token } : {}, transports: ['websocket'], reconnection: false });
}

function nextEvent(socket: Socket, event: string, ms = 5000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

describe.each(DATABASES)('console sockets on %s', (kind) => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    const admin = await server.login();
    key = (await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k' } })).body
      .key;
    await server.createUser('noperm@example.test', 'noperm-password');
  });
  afterAll(async () => server.stop());

  it('refuses a socket without a valid token', async () => {
    const socket = connect(server.url, 'forged');
    const error = await nextEvent(socket, 'connect_error');
    expect(String(error)).toMatch(/expired|Sign in/);
    socket.close();
  });

  it('tells holders of list-host that an agent changed, and nobody else', async () => {
    const [adminToken, otherToken] = [
      await server.login(),
      await server.login('noperm@example.test', 'noperm-password'),
    ];
    const admin = connect(server.url, adminToken);
    const other = connect(server.url, otherToken);
    await Promise.all([nextEvent(admin, 'connect'), nextEvent(other, 'connect')]);
    let otherHeard = false;
    other.on('agents_changed', () => (otherHeard = true));
    const counts = nextEvent(other, 'navigation_counts_changed');
    const heard = nextEvent(admin, 'agents_changed');
    await server.call('POST', '/api/agent/register', { body: { key, hostname: 'sock-01', os: 1, version: '2.0.0' } });
    expect((await heard) as { id: string }).toHaveProperty('id', expect.stringMatching(/^[0-9a-f-]{36}$/) as string);
    await counts;
    expect(otherHeard).toBe(false);
    admin.close();
    other.close();
  });
});

// Two server instances sharing PostgreSQL and Redis: an event on one reaches consoles on the other.
describe.runIf(process.env.TEST_DATABASE_URL && process.env.REDIS_URL)(
  'two instances sharing PostgreSQL and Redis',
  () => {
    const servers: RunningServer[] = [];
    let stopInstances: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      const started = await startInstances(2);
      servers.push(...started.servers);
      stopInstances = started.stop;
    });
    afterAll(async () => {
      await stopInstances();
    });

    it('fans an agent change on instance A out to a console on instance B', async () => {
      const [a, b] = servers as [RunningServer, RunningServer];
      const login = async (base: string) => {
        const res = await fetch(`${base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ADMIN),
        });
        return ((await res.json()) as { response: { user: { authentication_token: string } } }).response.user
          .authentication_token;
      };
      const tokenFromA = await login(a.url);
      const onB = connect(b.url, tokenFromA);
      await nextEvent(onB, 'connect');
      const heard = nextEvent(onB, 'agents_changed');
      const keyRes = await fetch(`${a.url}/api/apikey`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'authentication-token': tokenFromA },
        body: JSON.stringify({ description: 'shared' }),
      });
      const { key } = (await keyRes.json()) as { key: string };
      await fetch(`${a.url}/api/agent/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key, hostname: 'shared-01', os: 1, version: '2.0.0' }),
      });
      expect((await heard) as { id: string }).toHaveProperty('id', expect.stringMatching(/^[0-9a-f-]{36}$/) as string);
      onB.close();
    });
  },
);

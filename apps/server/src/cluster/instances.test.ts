import fs from 'node:fs';
import { AGENT_CONNECT_PATH, AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningServer, startServer } from '../server.js';
import { ADMIN, DATABASES, openTestDatabase, testConfig } from '../test/harness.js';
import { InstancesRepository } from './instances.repository.js';

type Listed = { agents: { id: string; connected: boolean; state: string }[] };

/** Calls the API of a running server. */
async function call<T>(server: RunningServer, method: string, pathName: string, token?: string, body?: unknown) {
  const res = await fetch(`${server.url}${pathName}`, {
    method,
    headers: {
      ...(token ? { 'authentication-token': token } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as T;
}

/** An agent's socket (a forged agent: its hello is sent when the test says). */
async function agentSocket(server: RunningServer, id: string, credential: string) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
    headers: { [AGENT_ID_HEADER]: id, [AGENT_CREDENTIAL_HEADER]: credential },
  });
  const config = new Promise((resolve) => ws.once('message', resolve));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    ws,
    hello: async () => {
      ws.send(JSON.stringify({ t: 'hello', hostname: 'app-01', os: 1, version: '2.0.0' }));
      await config;
    },
  };
}

describe.each(DATABASES)('the state of hosts across a server restart, on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('reads reconnecting from the restart until the agent’s hello, and a session says so meanwhile', async () => {
    const { database, drop } = await openTestDatabase(kind);
    cleanups.push(drop);
    const config = testConfig();
    cleanups.push(() => fs.rmSync(config.dataDir, { recursive: true, force: true }));
    const first = await startServer(config, { database });
    const login = async (server: RunningServer) =>
      (
        await call<{ response: { user: { authentication_token: string } } }>(
          server,
          'POST',
          '/api/login?include_auth_token',
          undefined,
          ADMIN,
        )
      ).response.user.authentication_token;
    let token = await login(first);
    const { key } = await call<{ key: string }>(first, 'POST', '/api/apikey', token, { description: 'k' });
    const { id, credential } = await call<{ id: string; credential: string }>(
      first,
      'POST',
      '/api/agent/register',
      undefined,
      { key, hostname: 'app-01', os: 1, version: '2.0.0' },
    );
    await call(first, 'POST', `/api/agent/${id}/config`, token, { whitelist: [22] });
    const before = await agentSocket(first, id, credential);
    await before.hello();
    const stateOn = async (server: RunningServer) =>
      (await call<Listed>(server, 'GET', '/api/agent', token)).agents.find((a) => a.id === id);
    expect(await stateOn(first)).toMatchObject({ state: 'connected', connected: true });

    const closed = new Promise((resolve) => before.ws.once('close', resolve));
    await first.close();
    await closed;
    const second = await startServer(config, { database });
    cleanups.push(() => second.close());
    token = await login(second);
    // The agent was heard from a moment ago, but not by anyone running now.
    expect(await stateOn(second)).toMatchObject({ state: 'reconnecting', connected: false });
    await expect(second.services.hub.openStream(id, 22)).rejects.toThrow(/reconnecting after a server restart/);
    const counts = await call<{ connectedHosts?: number }>(second, 'GET', '/api/navigation/counts', token);
    expect(counts.connectedHosts).toBe(0);

    // Its socket alone is not enough: the hello says the agent is back.
    const after = await agentSocket(second, id, credential);
    expect((await stateOn(second))?.state).toBe('reconnecting');
    await after.hello();
    expect(await stateOn(second)).toMatchObject({ state: 'connected', connected: true });
    after.ws.close();
  });
});

describe('which instances count as gone (on PGlite)', () => {
  it('marks a silent instance gone only once the marking instance has beaten through the whole silence', async () => {
    const { database, drop } = await openTestDatabase('pglite');
    try {
      const { migrate } = await import('../db/migrate.js');
      await migrate(database);
      const repository = new InstancesRepository(database.db);
      const self = crypto.randomUUID();
      const silent = crypto.randomUUID();
      await repository.register(self, 'h', 1);
      await repository.register(silent, 'h', 2);
      await database.query(`UPDATE server_instances SET beat_at = now() - interval '20 seconds' WHERE id = $1`, [
        silent,
      ]);
      // Just back from an outage of the database: everyone's beat is stale, nobody is judged yet.
      const [now] = await database.query<{ now: Date }>('SELECT now() AS now');
      expect(await repository.markSilentGone(self, 8, now!.now)).toEqual([]);
      // Beating fine for longer than the silence: the other one is gone, found by exactly one caller.
      const earlier = new Date(now!.now.getTime() - 9000);
      expect(await repository.markSilentGone(self, 8, earlier)).toEqual([silent]);
      expect(await repository.markSilentGone(self, 8, earlier)).toEqual([]);
      // Gone stays gone: its beat is refused.
      expect(await repository.beat(silent)).toBeUndefined();
      expect(await repository.beat(self)).toBeInstanceOf(Date);
    } finally {
      await drop();
    }
  });
});

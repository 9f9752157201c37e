import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { hashToken } from '../auth/tokens.js';

/** The status a WebSocket upgrade to the tunnel endpoint is answered with (101 when it opened). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', () => resolve(0));
  });
}

// The access policy through the real server: signed-in users holding one delegated permission.
describe.each(DATABASES)('the access policy on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const agents: Record<string, { id: string; credential: string }> = {};
  const recordings: Record<string, string> = {};
  let rdpId = '';
  let agentTunnelId = '';

  const denials = async () =>
    server.services.database.query<{ actor: string; target: string; detail: { what: string; why: string } }>(
      "SELECT actor, target, detail FROM audit_log WHERE action = 'policy.deny' ORDER BY id",
    );
  const userId = async (email: string) => (await server.services.repositories.users.findByEmail(email))!.id;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    // Agents enrolled straight in the repository: registration is another module's concern.
    for (const hostname of ['web-01', 'db-01']) {
      const credential = `gha_${randomBytes(32).toString('base64url')}`;
      const id = await server.services.repositories.agents.create({
        hostname,
        os: 1,
        version: '2.0.0',
        credentialHash: hashToken(credential),
        config: null,
        registeredWith: randomUUID(),
      });
      agents[hostname] = { id, credential };
    }
    const dir = path.join(server.dataDir, 'recordings', 'test');
    fs.mkdirSync(dir, { recursive: true });
    for (const hostname of ['web-01', 'db-01']) {
      const file = path.join(dir, `${hostname}.cast`);
      fs.writeFileSync(file, `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n[0.5,"o","hi"]\n`);
      recordings[hostname] = (
        await server.services.repositories.recordings.create({
          type: 'ssh',
          agentId: agents[hostname]!.id,
          hostname,
          userId: null,
          userEmail: 'someone@example.test',
          definitionId: null,
          definitionName: `${hostname} shell`,
          startedOn: new Date(Date.now() - 3_600_000),
          endedOn: new Date(Date.now() - 3_000_000),
          storagePath: file,
        })
      ).id;
    }
    await server.createUser('lister@example.test', 'lister-password', {
      permissions: ['list-recording', 'list-all-tunnel-definitions'],
    });
    await server.createUser('web-user@example.test', 'web-user-password', {
      permissions: ['list-recording', 'list-all-tunnel-definitions'],
    });
    // web-user is admitted to web-01 by an ssh definition; lister to nothing.
    const ssh = await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/ssh', {
      token: admin,
      body: { name: 'web-01 shell', host_id: agents['web-01']!.id, ssh_login: 'deploy' },
    });
    expect(ssh.status, JSON.stringify(ssh.body)).toBe(201);
    await server.call('PUT', `/api/tunneldefinition/${ssh.body.definition.id}/users`, {
      token: admin,
      body: { users: [await userId('web-user@example.test')] },
    });
    const rdp = await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/rdp', {
      token: admin,
      body: { name: 'db-01 desktop', host_id: agents['db-01']!.id },
    });
    rdpId = rdp.body.definition.id;
    await server.createUser('rdp-user@example.test', 'rdp-user-password');
    await server.call('PUT', `/api/tunneldefinition/${rdpId}/users`, {
      token: admin,
      body: { users: [await userId('rdp-user@example.test')] },
    });
    const agentTunnel = await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/agent', {
      token: admin,
      body: { name: 'db-01 from web-01', host_id: agents['db-01']!.id, port: 5432 },
    });
    agentTunnelId = agentTunnel.body.definition.id;
    await server.call('PUT', `/api/tunneldefinition/${agentTunnelId}/agents`, {
      token: admin,
      body: { agents: [agents['web-01']!.id] },
    });
  });
  afterAll(async () => server.stop());

  it('a holder of list-all-tunnel-definitions sees no recording of a host they do not reach', async () => {
    const lister = await server.login('lister@example.test', 'lister-password');
    const all = await server.call<{ recordings: unknown[] }>('GET', '/api/recording', { token: lister });
    expect(all.status).toBe(200);
    expect(all.body.recordings).toEqual([]);
    for (const id of Object.values(recordings)) {
      expect((await server.call('GET', `/api/recording/${id}`, { token: lister })).status).toBe(404);
    }
    const counts = await server.call<{ totalSessions?: number }>('GET', '/api/navigation/counts', { token: lister });
    expect(counts.body.totalSessions ?? 0).toBe(0);
    // The same permissions with a definition admitting web-01: web-01's recording only.
    const webUser = await server.login('web-user@example.test', 'web-user-password');
    const some = await server.call<{ recordings: { id: string }[] }>('GET', '/api/recording', { token: webUser });
    expect(some.body.recordings.map((r) => r.id)).toEqual([recordings['web-01']]);
    expect((await server.call('GET', `/api/recording/${recordings['db-01']}`, { token: webUser })).status).toBe(404);
    // The dashboard's charts: counts of every host (migration 0027's recording_starts) only for who reaches every host.
    type Charts = { recordings: { totalAll: number; totalPast24Hours: number } };
    const charts = async (token: string) => (await server.call<Charts>('GET', '/api/agent/dashboard', { token })).body;
    expect((await charts(await server.login())).recordings).toMatchObject({ totalAll: 2, totalPast24Hours: 2 });
    expect((await charts(lister)).recordings).toMatchObject({ totalAll: 0, totalPast24Hours: 0 });
    expect((await charts(webUser)).recordings).toMatchObject({ totalAll: 1, totalPast24Hours: 1 });
    const webCounts = await server.call<{ totalSessions?: number }>('GET', '/api/navigation/counts', {
      token: webUser,
    });
    expect(webCounts.body.totalSessions).toBe(1);
  });

  it('a user no definition admits cannot open an rdp tunnel, and the denial is audited', async () => {
    const url = `${server.url.replace('http', 'ws')}/api/tunnel/connect?definition=${rdpId}`;
    const lister = await server.login('lister@example.test', 'lister-password');
    expect(await upgradeStatus(url, { 'authentication-token': lister })).toBe(403);
    const denied = (await denials()).filter((d) => d.actor === 'lister@example.test');
    expect(denied.at(-1)).toMatchObject({ target: 'db-01 desktop', detail: { what: 'tunnel.rdp' } });
    // The admitted user passes the policy (and then meets the absent agent: 502).
    const rdpUser = await server.login('rdp-user@example.test', 'rdp-user-password');
    expect(await upgradeStatus(url, { 'authentication-token': rdpUser })).toBe(502);
  });

  it('an agent cannot open an agent tunnel with another agent’s or a forged credential', async () => {
    const url = `${server.url.replace('http', 'ws')}/api/tunnel/connect?definition=${agentTunnelId}`;
    const as = (who: string, credential?: string) =>
      upgradeStatus(url, {
        [AGENT_ID_HEADER]: agents[who]!.id,
        [AGENT_CREDENTIAL_HEADER]: credential ?? agents[who]!.credential,
      });
    // db-01 is not listed on the tunnel; web-01's id with db-01's credential proves nothing.
    expect(await as('db-01')).toBe(403);
    expect(await as('web-01', agents['db-01']!.credential)).toBe(401);
    expect(await as('web-01', 'x'.repeat(600))).toBe(401);
    expect((await denials()).some((d) => d.actor === 'agent:db-01' && d.detail.what === 'tunnel.agent')).toBe(true);
    // The listed agent with its own credential passes (then meets the absent agent stream: 502).
    expect(await as('web-01')).toBe(502);
  });

  it('a user whose roles lack create-tunnel cannot open a tunnel a definition admits them to', async () => {
    const url = `${server.url.replace('http', 'ws')}/api/tunnel/connect?definition=${rdpId}`;
    // Only the roles given: no built-in user role, so create-tunnel is not held.
    await server.createUser('no-open@example.test', 'no-open-password', { roles: [], permissions: ['list-recording'] });
    await server.call('PUT', `/api/tunneldefinition/${rdpId}/users`, {
      token: admin,
      body: { users: [await userId('rdp-user@example.test'), await userId('no-open@example.test')] },
    });
    const noOpen = await server.login('no-open@example.test', 'no-open-password');
    expect(await upgradeStatus(url, { 'authentication-token': noOpen })).toBe(403);
    expect((await denials()).at(-1)).toMatchObject({
      actor: 'no-open@example.test',
      detail: { what: 'tunnel.rdp', why: 'no role of the user holds create-tunnel' },
    });
    // Taking create-tunnel from the user role stops everyone who held it only through that role.
    const rdpUser = await server.login('rdp-user@example.test', 'rdp-user-password');
    expect(await upgradeStatus(url, { 'authentication-token': rdpUser })).toBe(502);
    const taken = await server.call('DELETE', '/api/role/user/permissions', {
      token: admin,
      body: { permissions: ['create-tunnel'] },
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(await upgradeStatus(url, { 'authentication-token': rdpUser })).toBe(403);
    const given = await server.call('PUT', '/api/role/user/permissions', {
      token: admin,
      body: { permissions: ['create-tunnel'] },
    });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect(await upgradeStatus(url, { 'authentication-token': rdpUser })).toBe(502);
  });

  it('a holder of terminate-session cannot end a session they may not watch', async () => {
    // A live session on web-01 (its row; the process holding it is elsewhere).
    const file = path.join(server.dataDir, 'recordings', 'test', 'live.cast');
    fs.writeFileSync(file, `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n`);
    const live = await server.services.repositories.recordings.create({
      type: 'ssh',
      agentId: agents['web-01']!.id,
      hostname: 'web-01',
      userId: null,
      userEmail: 'victim@example.test',
      definitionId: null,
      definitionName: 'web-01 shell',
      startedOn: new Date(),
      storagePath: file,
    });
    // Admitted to web-01 (it reaches the host) and holding terminate-session, but not list-recording.
    await server.createUser('ender@example.test', 'ender-password', { permissions: ['terminate-session'] });
    await server.createUser('watcher@example.test', 'watcher-password', {
      permissions: ['terminate-session', 'list-recording'],
    });
    const ssh = (await server.services.repositories.tunnels.listAll()).find((d) => d.name === 'web-01 shell')!;
    await server.call('PUT', `/api/tunneldefinition/${ssh.id}/users`, {
      token: admin,
      body: {
        users: [
          await userId('web-user@example.test'),
          await userId('ender@example.test'),
          await userId('watcher@example.test'),
        ],
      },
    });
    const ender = await server.login('ender@example.test', 'ender-password');
    const refused = await server.call('DELETE', `/api/tunnel/${live.id}`, { token: ender });
    expect(refused.status).toBe(404);
    // With list-recording the same call passes the policy (and finds no instance holding it: 409).
    const watcher = await server.login('watcher@example.test', 'watcher-password');
    expect((await server.call('DELETE', `/api/tunnel/${live.id}`, { token: watcher })).status).toBe(409);
    // Out of reach, list-recording or not: unknown.
    await server.createUser('far@example.test', 'far-password', {
      permissions: ['terminate-session', 'list-recording'],
    });
    const far = await server.login('far@example.test', 'far-password');
    expect((await server.call('DELETE', `/api/tunnel/${live.id}`, { token: far })).status).toBe(404);
  });
});

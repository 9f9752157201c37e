import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Definition = {
  id: string;
  type: string;
  name: string;
  port: number;
  host: { hostname: string };
  public_key: string | null;
  ssh_auth: string | null;
  users: string[];
  group: string | null;
};
type Lists = Record<'ssh' | 'rdp' | 'generic' | 'agent', Definition[]>;

describe.each(DATABASES)('tunnel definitions on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let host: string;
  let other: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k', uses: 5 } })
    ).body.key;
    host = (
      await server.call<{ id: string }>('POST', '/api/agent/register', {
        body: { key, hostname: 'web-01', os: 1, version: '2.0.0' },
      })
    ).body.id;
    other = (
      await server.call<{ id: string }>('POST', '/api/agent/register', {
        body: { key, hostname: 'ci-runner', os: 1, version: '2.0.0' },
      })
    ).body.id;
    await server.createUser('tess@example.test', 'tess-password');
    await server.createUser('uma@example.test', 'uma-password');
  });
  afterAll(async () => server.stop());

  const create = (type: string, body: Record<string, unknown>) =>
    server.call<{ definition: Definition; message: string }>('POST', `/api/tunneldefinition/${type}`, {
      token: admin,
      body,
    });

  it('creates an ssh definition with a generated Ed25519 key pair whose public half it shows', async () => {
    const res = await create('ssh', { name: 'web-01 shell', host_id: host, ssh_login: 'deploy' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Tunnel created');
    expect(res.body.definition).toMatchObject({ type: 'ssh', port: 22, ssh_auth: 'key', host: { hostname: 'web-01' } });
    expect(res.body.definition.public_key).toMatch(/^ssh-ed25519 AAAA\S+ gatehouse-deploy$/);
    const stored = await server.services.database.query<{ credential_sealed: string }>(
      'SELECT credential_sealed FROM tunnel_definitions',
    );
    expect(stored[0]?.credential_sealed).toMatch(/^v1:/);
    expect(stored[0]?.credential_sealed).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE');
  });

  it('keeps an ssh password sealed and never answers it', async () => {
    const res = await create('ssh', {
      name: 'legacy',
      host_id: host,
      ssh_login: 'root',
      ssh_auth: 'password',
      password: 'hunter2-secret',
    });
    expect(res.status).toBe(201);
    expect(res.body.definition.public_key).toBeNull();
    const all = await server.call('GET', '/api/tunneldefinition/all', { token: admin });
    expect(JSON.stringify(all.body)).not.toContain('hunter2-secret');
    const raw = await server.services.database.query<{ credential_sealed: string }>(
      "SELECT credential_sealed FROM tunnel_definitions WHERE name = 'legacy'",
    );
    expect(raw[0]?.credential_sealed).not.toContain('hunter2');
  });

  it('checks what each type needs', async () => {
    expect((await create('ssh', { name: 'x', host_id: host })).status).toBe(400);
    expect((await create('generic', { name: 'x', host_id: host })).status).toBe(400);
    expect((await create('ssh', { name: 'x', host_id: host, ssh_login: 'a', ssh_auth: 'password' })).status).toBe(400);
    expect((await create('ftp', { name: 'x', host_id: host, port: 21 })).status).toBe(400);
    expect((await create('rdp', { name: 'x', host_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await create('generic', { name: 'x', host_id: host, port: 70000 })).status).toBe(400);
  });

  it('lists every type, and each user only what they reach directly or through nested groups', async () => {
    const rdp = (await create('rdp', { name: 'desktop', host_id: host })).body.definition;
    const generic = (await create('generic', { name: 'postgres', host_id: host, port: 5432, group: null })).body
      .definition;
    const agentTunnel = (await create('agent', { name: 'ci to db', host_id: host, port: 5432 })).body.definition;
    expect(rdp.port).toBe(3389);
    const all = await server.call<Lists>('GET', '/api/tunneldefinition/all', { token: admin });
    expect(all.body.ssh).toHaveLength(2);
    expect(all.body.rdp.map((d) => d.name)).toEqual(['desktop']);
    expect(all.body.agent.map((d) => d.name)).toEqual(['ci to db']);

    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    const tess = users.body.users.find((u) => u.email === 'tess@example.test')!.id;
    expect(
      (await server.call('PUT', `/api/tunneldefinition/${rdp.id}/users`, { token: admin, body: { users: [tess] } }))
        .status,
    ).toBe(200);
    await server.call('POST', '/api/group', { token: admin, body: { name: 'dba' } });
    await server.call('POST', '/api/group', { token: admin, body: { name: 'contractors' } });
    await server.call('PUT', '/api/group/dba/groups', { token: admin, body: { groups: ['contractors'] } });
    await server.call('PUT', '/api/group/contractors/users', { token: admin, body: { users: ['uma@example.test'] } });
    expect(
      (await server.call('PUT', `/api/tunneldefinition/${generic.id}`, { token: admin, body: { group: 'dba' } }))
        .status,
    ).toBe(200);

    const tessToken = await server.login('tess@example.test', 'tess-password');
    const umaToken = await server.login('uma@example.test', 'uma-password');
    const forTess = await server.call<Lists>('GET', '/api/tunneldefinition', { token: tessToken });
    const forUma = await server.call<Lists>('GET', '/api/tunneldefinition', { token: umaToken });
    expect(
      [...forTess.body.ssh, ...forTess.body.rdp, ...forTess.body.generic, ...forTess.body.agent].map((d) => d.name),
    ).toEqual(['desktop']);
    expect(
      [...forUma.body.ssh, ...forUma.body.rdp, ...forUma.body.generic, ...forUma.body.agent].map((d) => d.name),
    ).toEqual(['postgres']);
    expect((await server.call('GET', '/api/tunneldefinition/all', { token: umaToken })).status).toBe(403);

    const agents = await server.call<{ message: string }>('PUT', `/api/tunneldefinition/${agentTunnel.id}/agents`, {
      token: admin,
      body: [other],
    });
    expect(agents.body.message).toBe('Tunnel updated');
    const after = await server.call<Lists>('GET', '/api/tunneldefinition/all', { token: admin });
    expect(after.body.agent[0]).toMatchObject({ agents: [{ id: other, hostname: 'ci-runner' }] });
  });

  it('updates and deletes, with 404 for unknown ids and the §8 messages', async () => {
    const def = (await create('generic', { name: 'redis', host_id: host, port: 6379 })).body.definition;
    const updated = await server.call<{ definition: Definition; message: string }>(
      'PUT',
      `/api/tunneldefinition/${def.id}`,
      { token: admin, body: { port: 6380, name: 'redis replica' } },
    );
    expect(updated.body).toMatchObject({
      message: 'Tunnel updated',
      definition: { port: 6380, name: 'redis replica' },
    });
    const deleted = await server.call<{ message: string }>('DELETE', `/api/tunneldefinition/${def.id}`, {
      token: admin,
    });
    expect(deleted.body.message).toBe('Tunnel deleted');
    expect((await server.call('DELETE', `/api/tunneldefinition/${def.id}`, { token: admin })).status).toBe(404);
    expect(
      (await server.call('PUT', `/api/tunneldefinition/${def.id}/users`, { token: admin, body: { users: [] } })).status,
    ).toBe(404);
  });
});

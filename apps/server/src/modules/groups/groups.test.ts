import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type ErrorAnswer = { message: string };
type Groups = {
  groups: { name: string; users: string[]; agents: { id: string; hostname: string }[]; groups: string[] }[];
};

describe.each(DATABASES)('groups on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const agentIds: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    await server.createUser('kai@example.test', 'kai-password');
    await server.createUser('lea@example.test', 'lea-password');
    // Agents register in a later issue; until then the test puts two in the table directly.
    for (const hostname of ['web-01', 'db-01']) {
      const [row] = await server.services.database.query<{ id: string }>(
        'INSERT INTO agents (hostname) VALUES ($1) RETURNING id',
        [hostname],
      );
      agentIds[hostname] = row?.id ?? '';
    }
  });
  afterAll(async () => server.stop());

  const create = (name: string) => server.call<ErrorAnswer>('POST', '/api/group', { token: admin, body: { name } });

  it('creates groups and lists them by name without regard to case', async () => {
    for (const name of ['ops', 'Backend', 'admins', 'Zeta']) expect((await create(name)).status).toBe(201);
    const res = await server.call<Groups>('GET', '/api/group', { token: admin });
    expect(res.body.groups.map((g) => g.name)).toEqual(['admins', 'Backend', 'ops', 'Zeta']);
  });

  it('refuses a duplicate name, in any case, with the §8 text and its two spaces', async () => {
    for (const name of ['ops', 'OPS']) {
      const res = await create(name);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('That group name is already in use.  Please use a different name.');
    }
    expect((await create('a/b')).status).toBe(400);
    expect((await create('')).status).toBe(400);
  });

  it('adds users and agents, refuses adding them twice, and removes them', async () => {
    const add = await server.call<{ message: string }>('PUT', '/api/group/ops/users', {
      token: admin,
      body: { users: ['kai@example.test'] },
    });
    expect(add.body.message).toBe('User added to group');
    const twice = await server.call<ErrorAnswer>('PUT', '/api/group/ops/users', {
      token: admin,
      body: { users: ['kai@example.test'] },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('The user you are trying to include has already been included.');
    const hosts = await server.call<{ message: string }>('PUT', '/api/group/Backend/agents', {
      token: admin,
      body: { agents: [agentIds['web-01']] },
    });
    expect(hosts.body.message).toBe('Host added to group');
    const unknown = await server.call<ErrorAnswer>('PUT', '/api/group/Backend/agents', {
      token: admin,
      body: { agents: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(unknown.status).toBe(404);
    await server.call('PUT', '/api/group/Zeta/users', { token: admin, body: { users: ['lea@example.test'] } });
    const removed = await server.call<{ message: string }>('DELETE', '/api/group/Zeta/user/lea@example.test', {
      token: admin,
    });
    expect(removed.body.message).toBe('User removed from group');
    expect((await server.call('DELETE', '/api/group/Zeta/user/lea@example.test', { token: admin })).status).toBe(404);
  });

  it('nests groups, so members of a child reach the parent’s agents', async () => {
    // admins ⊃ ops ⊃ (kai); Backend holds web-01; ops is nested in Backend too.
    expect(
      (await server.call('PUT', '/api/group/admins/groups', { token: admin, body: { groups: ['ops'] } })).status,
    ).toBe(200);
    expect(
      (await server.call('PUT', '/api/group/Backend/groups', { token: admin, body: { groups: ['ops'] } })).status,
    ).toBe(200);
    await server.call('PUT', '/api/group/admins/agents', { token: admin, body: { agents: [agentIds['db-01']] } });
    const kai = await server.login('kai@example.test', 'kai-password');
    const reach = await server.call<{ groups: string[]; agents: { hostname: string; via: string[] }[] }>(
      'GET',
      '/api/user/kai@example.test/reach',
      { token: kai },
    );
    expect(reach.body.groups).toEqual(['admins', 'Backend', 'ops']);
    expect(reach.body.agents).toEqual([
      { id: agentIds['db-01'], hostname: 'db-01', via: ['admins'] },
      { id: agentIds['web-01'], hostname: 'web-01', via: ['Backend'] },
    ]);
    expect((await server.call('GET', '/api/user/lea@example.test/reach', { token: kai })).status).toBe(403);
  });

  it('refuses a nesting that would make a cycle and names the cycle', async () => {
    const res = await server.call<ErrorAnswer>('PUT', '/api/group/ops/groups', {
      token: admin,
      body: { groups: ['admins'] },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('ops → admins → ops');
    const self = await server.call<ErrorAnswer>('PUT', '/api/group/ops/groups', {
      token: admin,
      body: { groups: ['ops'] },
    });
    expect(self.status).toBe(409);
    const list = await server.call<Groups>('GET', '/api/group', { token: admin });
    expect(list.body.groups.find((g) => g.name === 'ops')?.groups).toEqual([]);
  });

  it('takes out a child group and deletes groups', async () => {
    expect((await server.call('DELETE', '/api/group/Backend/group/ops', { token: admin })).status).toBe(200);
    const del = await server.call<{ message: string }>('DELETE', '/api/group/Zeta', { token: admin });
    expect(del.body.message).toBe('Group deleted');
    expect((await server.call('DELETE', '/api/group/Zeta', { token: admin })).status).toBe(404);
  });

  it('lets list-group holders read but not change groups', async () => {
    await server.createUser('mo@example.test', 'mo-password', { permissions: ['list-group'] });
    const mo = await server.login('mo@example.test', 'mo-password');
    expect((await server.call('GET', '/api/group', { token: mo })).status).toBe(200);
    expect((await server.call('POST', '/api/group', { token: mo, body: { name: 'nope' } })).status).toBe(403);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { PERMISSIONS } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { hashToken } from '../auth/tokens.js';

// The grant guards through the real server: each attacker holds exactly one delegated permission
// and reaches web-01 (through the group web-team), never db-01.
describe.each(DATABASES)('the grant guards on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const host: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const call = (who: string, method: string, path: string, body?: unknown) =>
    server.call<{ message: string }>(method, path, { token: who === 'admin' ? admin : tokens[who], body });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call('admin', method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res;
  };
  const reach = async (email: string) => {
    const user = await server.services.repositories.users.findByEmail(email);
    return [...(await server.services.policy.reachOfUser(user!.id))].sort();
  };
  const enc = encodeURIComponent;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    for (const hostname of ['web-01', 'db-01']) {
      host[hostname] = await server.services.repositories.agents.create({
        hostname,
        os: 1,
        version: '2.0.0',
        credentialHash: hashToken(randomBytes(16).toString('hex')),
        config: null,
        registeredWith: randomUUID(),
      });
    }
    for (const [name, permission] of [
      ['grouper', 'modify-group'],
      ['roler', 'modify-user-role'],
      ['userer', 'modify-user'],
      ['creator', 'create-tunnel-definition'],
      ['modifier', 'modify-tunnel-definition'],
    ] as const) {
      await server.createUser(`${name}@example.test`, `${name}-password`, { permissions: [permission] });
      tokens[name] = await server.login(`${name}@example.test`, `${name}-password`);
    }
    await server.createUser('plain@example.test', 'plain-password');
    await server.createUser('auditor@example.test', 'auditor-password', { permissions: ['list-audit-log'] });
    await server.createUser('db-user@example.test', 'db-user-password');
    await server.createUser('ada@example.test', 'ada-password', { roles: ['user', 'admin'] });
    // web-team holds web-01 and every attacker; db-team holds db-01 and db-user.
    for (const group of ['web-team', 'db-team', 'db-by-definition', 'outer', 'middle', 'empty'])
      await ok('POST', '/api/group', { name: group });
    await ok('PUT', '/api/group/web-team/agents', { agents: [host['web-01']] });
    await ok('PUT', '/api/group/web-team/users', {
      users: ['grouper', 'roler', 'userer', 'creator', 'modifier'].map((n) => `${n}@example.test`),
    });
    await ok('PUT', '/api/group/db-team/agents', { agents: [host['db-01']] });
    await ok('PUT', '/api/group/db-team/users', { users: ['db-user@example.test'] });
    await ok('PUT', '/api/group/outer/agents', { agents: [host['db-01']] });
    await ok('PUT', '/api/group/outer/groups', { groups: ['middle'] });
    // db-by-definition holds no agent, but a definition naming it admits its members to db-01.
    await ok('POST', '/api/tunneldefinition/ssh', {
      name: 'db-01 via group',
      host_id: host['db-01'],
      ssh_login: 'dba',
      group: 'db-by-definition',
    });
  });
  afterAll(async () => server.stop());

  it('a holder of modify-group cannot add themself to a group that reaches a host they do not reach', async () => {
    const before = await reach('grouper@example.test');
    expect(before).toEqual([host['web-01']]);
    for (const group of ['db-team', 'db-by-definition', 'middle']) {
      const res = await call('grouper', 'PUT', `/api/group/${group}/users`, { users: ['grouper@example.test'] });
      expect(res.status, group).toBe(403);
      expect(res.body.message).toContain('db-01');
    }
    expect(await reach('grouper@example.test')).toEqual(before);
    // What they reach already, they may give.
    expect((await call('grouper', 'PUT', '/api/group/web-team/users', { users: ['plain@example.test'] })).status).toBe(
      200,
    );
  });

  it('a holder of modify-group cannot nest a group into one that reaches more', async () => {
    for (const parent of ['db-team', 'db-by-definition', 'middle']) {
      const res = await call('grouper', 'PUT', `/api/group/${parent}/groups`, { groups: ['web-team'] });
      expect(res.status, parent).toBe(403);
    }
    expect(await reach('grouper@example.test')).toEqual([host['web-01']]);
    expect((await call('grouper', 'PUT', '/api/group/empty/groups', { groups: ['web-team'] })).status).toBe(200);
  });

  it('a holder of modify-group cannot add an agent they do not reach', async () => {
    const res = await call('grouper', 'PUT', '/api/group/web-team/agents', { agents: [host['db-01']] });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('db-01');
    expect(await reach('grouper@example.test')).toEqual([host['web-01']]);
    expect((await call('grouper', 'PUT', '/api/group/empty/agents', { agents: [host['web-01']] })).status).toBe(200);
  });

  it('a holder of modify-group cannot delete or strip a group that gives hosts they do not reach', async () => {
    expect((await call('grouper', 'DELETE', '/api/group/db-team')).status).toBe(403);
    expect((await call('grouper', 'DELETE', `/api/group/db-team/user/${enc('db-user@example.test')}`)).status).toBe(
      403,
    );
    expect((await call('grouper', 'DELETE', `/api/group/db-team/agent/${host['db-01']}`)).status).toBe(403);
    expect((await call('grouper', 'DELETE', '/api/group/outer/group/middle')).status).toBe(403);
    expect(await reach('db-user@example.test')).toEqual([host['db-01']]);
  });

  it('a holder of modify-user-role cannot give or take the admin role, even with every permission of it', async () => {
    await server.createUser('almighty@example.test', 'almighty-password', { permissions: [...PERMISSIONS] });
    const almighty = await server.login('almighty@example.test', 'almighty-password');
    const give = await server.call<{ message: string }>('PUT', '/api/role/admin/users', {
      token: almighty,
      body: { users: ['almighty@example.test'] },
    });
    expect(give.status).toBe(403);
    expect(give.body.message).toMatch(/admin role/);
    const take = await server.call('DELETE', `/api/user/${enc('ada@example.test')}/role/admin`, { token: almighty });
    expect(take.status).toBe(403);
    expect((await call('roler', 'PUT', '/api/role/admin/users', { users: ['roler@example.test'] })).status).toBe(403);
    const roles = await server.services.repositories.users.rolesOf(
      (await server.services.repositories.users.findByEmail('almighty@example.test'))!.id,
    );
    expect(roles.map((r) => r.name)).not.toContain('admin');
  });

  it('the admin role keeps at least one holder', async () => {
    const solo = await startTestServer(kind);
    try {
      const token = await solo.login();
      const take = await solo.call('DELETE', `/api/user/${enc(ADMIN.email)}/role/admin`, { token });
      expect(take.status).toBe(409);
      expect((await solo.call('DELETE', `/api/user/${enc(ADMIN.email)}`, { token })).status).toBe(409);
      const roles = await solo.services.repositories.users.rolesOf(
        (await solo.services.repositories.users.findByEmail(ADMIN.email))!.id,
      );
      expect(roles.map((r) => r.name)).toContain('admin');
    } finally {
      await solo.stop();
    }
  });

  it('a holder of modify-user cannot delete an administrator', async () => {
    const res = await call('userer', 'DELETE', `/api/user/${enc('ada@example.test')}`);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('administrator');
    expect(await server.services.repositories.users.findByEmail('ada@example.test')).toBeDefined();
    // Nor an account holding a permission, or a host, that they lack.
    expect((await call('userer', 'DELETE', `/api/user/${enc('auditor@example.test')}`)).status).toBe(403);
    expect((await call('userer', 'DELETE', `/api/user/${enc('db-user@example.test')}`)).status).toBe(403);
    expect((await call('userer', 'DELETE', `/api/user/${enc('plain@example.test')}`)).status).toBe(200);
  });

  it('a holder of modify-user cannot send an administrator a password reset', async () => {
    const res = await call('userer', 'POST', `/api/user/${enc('ada@example.test')}/reset-password`);
    expect(res.status).toBe(403);
    expect((await call('userer', 'POST', `/api/user/${enc(ADMIN.email)}/reset-password`)).status).toBe(403);
    expect((await call('userer', 'POST', `/api/user/${enc('db-user@example.test')}/reset-password`)).status).toBe(403);
    const tokens = await server.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM password_reset_tokens r JOIN users u ON u.id = r.user_id WHERE u.email IN ('ada@example.test', 'admin@example.test')",
    );
    expect(tokens[0]?.n).toBe(0);
    // An account that holds nothing beyond theirs: the reset goes out.
    await server.createUser('plain2@example.test', 'plain2-password');
    expect((await call('userer', 'POST', `/api/user/${enc('plain2@example.test')}/reset-password`)).status).toBe(200);
  });

  it('a holder of create-tunnel-definition cannot admit themself to a host they do not reach', async () => {
    const res = await call('creator', 'POST', '/api/tunneldefinition/generic', {
      name: 'sneak',
      host_id: host['db-01'],
      port: 5432,
      group: 'web-team',
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('db-01');
    expect(await reach('creator@example.test')).toEqual([host['web-01']]);
    const allowed = await call('creator', 'POST', '/api/tunneldefinition/generic', {
      name: 'web metrics',
      host_id: host['web-01'],
      port: 9100,
    });
    expect(allowed.status).toBe(201);
  });

  it('a holder of modify-tunnel-definition cannot admit themself to a host they do not reach', async () => {
    const all = (
      await server.call<{ ssh: { id: string; name: string }[]; generic: { id: string; name: string }[] }>(
        'GET',
        '/api/tunneldefinition/all',
        { token: admin },
      )
    ).body;
    const onDb = all.ssh.find((d) => d.name === 'db-01 via group')!.id;
    const onWeb = all.generic.find((d) => d.name === 'web metrics')!.id;
    const modifier = (await server.services.repositories.users.findByEmail('modifier@example.test'))!.id;
    expect((await call('modifier', 'PUT', `/api/tunneldefinition/${onDb}/users`, { users: [modifier] })).status).toBe(
      403,
    );
    expect((await call('modifier', 'PUT', `/api/tunneldefinition/${onDb}`, { group: 'web-team' })).status).toBe(403);
    // Moving a definition they may change onto a host they do not reach.
    expect((await call('modifier', 'PUT', `/api/tunneldefinition/${onWeb}`, { host_id: host['db-01'] })).status).toBe(
      403,
    );
    expect(await reach('modifier@example.test')).toEqual([host['web-01']]);
    expect((await call('modifier', 'PUT', `/api/tunneldefinition/${onWeb}/users`, { users: [modifier] })).status).toBe(
      200,
    );
  });
});

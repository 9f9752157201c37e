import { PERMISSIONS } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type ErrorAnswer = { message: string; errors?: string[] };
type RoleAnswer = {
  role: { name: string; permissions: string[]; builtin: boolean; user_count: number; users: string[] };
};

describe.each(DATABASES)('roles on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    await server.createUser('ivan@example.test', 'ivan-password', {
      permissions: ['create-role', 'modify-role', 'modify-user-role', 'list-user-role', 'list-recording'],
    });
    await server.createUser('june@example.test', 'june-password');
  });
  afterAll(async () => server.stop());

  it('lists the built-in roles, admin holding every permission', async () => {
    const res = await server.call<{ roles: { name: string; permissions: string[]; builtin: boolean }[] }>(
      'GET',
      '/api/role',
      { token: admin },
    );
    const adminRole = res.body.roles.find((r) => r.name === 'admin');
    expect(adminRole?.builtin).toBe(true);
    expect([...(adminRole?.permissions ?? [])].sort()).toEqual([...PERMISSIONS].sort());
    expect(res.body.roles.find((r) => r.name === 'user')?.permissions).toEqual(['create-tunnel']);
    const catalogue = await server.call<{ permissions: string[] }>('GET', '/api/permission', { token: admin });
    expect(catalogue.body.permissions).toEqual([...PERMISSIONS]);
  });

  it('creates a role from comma-joined permissions and refuses a duplicate with the §8 text', async () => {
    const res = await server.call<RoleAnswer & { message: string }>('POST', '/api/role', {
      token: admin,
      body: { name: 'support', permissions: 'list-recording, list-host' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Role created');
    expect(res.body.role.permissions).toEqual(['list-host', 'list-recording']);
    const dup = await server.call<ErrorAnswer>('POST', '/api/role', { token: admin, body: { name: 'support' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('That role name is already in use.  Please use a different name.');
  });

  it('refuses unknown permissions by name', async () => {
    const res = await server.call<ErrorAnswer>('POST', '/api/role', {
      token: admin,
      body: { name: 'odd', permissions: ['list-host', 'fly'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Unknown permission: fly');
  });

  it('adds and removes permissions with comma-joined bodies', async () => {
    expect(
      (
        await server.call('PUT', '/api/role/support/permissions', {
          token: admin,
          body: { permissions: 'list-group,list-user' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.call('DELETE', '/api/role/support/permissions', {
          token: admin,
          body: { permissions: 'list-host' },
        })
      ).status,
    ).toBe(200);
    const role = await server.call<RoleAnswer>('GET', '/api/role/support', { token: admin });
    expect(role.body.role.permissions).toEqual(['list-group', 'list-recording', 'list-user']);
  });

  it('gives a role to users, shows them as holders, and refuses giving it twice', async () => {
    const res = await server.call<{ message: string }>('PUT', '/api/role/support/users', {
      token: admin,
      body: { users: ['june@example.test'] },
    });
    expect(res.body.message).toBe('Role updated');
    const role = await server.call<RoleAnswer>('GET', '/api/role/support', { token: admin });
    expect(role.body.role.users).toEqual(['june@example.test']);
    const again = await server.call<ErrorAnswer>('PUT', '/api/role/support/users', {
      token: admin,
      body: { users: ['june@example.test'] },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The user you are trying to add has already been added.');
    const june = await server.login('june@example.test', 'june-password');
    const me = await server.call<{ user: { effectivePermissions: string[] } }>('GET', '/api/user/me', { token: june });
    expect(me.body.user.effectivePermissions).toEqual(['list-recording', 'list-group', 'create-tunnel', 'list-user']);
    expect(
      (await server.call('PUT', '/api/role/support/users', { token: admin, body: { users: ['ghost@example.test'] } }))
        .status,
    ).toBe(404);
  });

  it('keeps the admin role whole and the built-in roles undeletable', async () => {
    expect(
      (await server.call('DELETE', '/api/role/admin/permissions', { token: admin, body: { permissions: 'list-host' } }))
        .status,
    ).toBe(409);
    expect((await server.call('DELETE', '/api/role/admin', { token: admin })).status).toBe(409);
    expect((await server.call('DELETE', '/api/role/user', { token: admin })).status).toBe(409);
  });

  it('stops a role manager from granting what they do not hold', async () => {
    const ivan = await server.login('ivan@example.test', 'ivan-password');
    const create = await server.call<ErrorAnswer>('POST', '/api/role', {
      token: ivan,
      body: { name: 'escalate', permissions: 'list-api-key' },
    });
    expect(create.status).toBe(403);
    expect(create.body.message).toMatch(/list-api-key/);
    expect(
      (
        await server.call('POST', '/api/role', {
          token: ivan,
          body: { name: 'viewers', permissions: 'list-recording' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await server.call('PUT', '/api/role/viewers/permissions', {
          token: ivan,
          body: { permissions: 'manage-license' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await server.call('PUT', '/api/role/admin/users', { token: ivan, body: { users: ['ivan@example.test'] } }))
        .status,
    ).toBe(403);
  });

  it('deletes a role, and its holders lose its permissions on their next request', async () => {
    const june = await server.login('june@example.test', 'june-password');
    expect((await server.call('DELETE', '/api/role/support', { token: admin })).status).toBe(200);
    const me = await server.call<{ user: { effectivePermissions: string[] } }>('GET', '/api/user/me', { token: june });
    expect(me.body.user.effectivePermissions).toEqual(['create-tunnel']);
    expect((await server.call('GET', '/api/role/support', { token: admin })).status).toBe(404);
  });
});

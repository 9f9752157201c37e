import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type UserList = { users: { email: string; name: string | null; roles: string[]; groups: string[] }[]; total: number };
type ErrorAnswer = { message: string; errors?: string[] };

describe.each(DATABASES)('user administration on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
  });
  afterAll(async () => server.stop());

  it('creates a user who holds the role user and can sign in', async () => {
    const res = await server.call<{ user: { email: string; roles: string[] }; message: string }>('POST', '/api/user', {
      token: admin,
      body: { email: 'Nina@Example.test', password: 'nina-password', name: 'Nina Patel' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('User created');
    expect(res.body.user).toMatchObject({ email: 'nina@example.test', roles: ['user'] });
    await server.login('nina@example.test', 'nina-password');
  });

  it('answers a duplicate with the text of spec §8', async () => {
    const res = await server.call<ErrorAnswer>('POST', '/api/user', {
      token: admin,
      body: { email: 'nina@example.test', password: 'whatever-1' },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The user you are trying to add has already been added.');
  });

  it('validates email, password length and unknown fields', async () => {
    const bad = await server.call<ErrorAnswer>('POST', '/api/user', {
      token: admin,
      body: { email: 'nope', password: 'short' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      'The Email you entered is not a valid format!',
      'Passwords need to be at least 8 characters long',
    ]);
    const extra = await server.call('POST', '/api/user', {
      token: admin,
      body: { email: 'x@example.test', password: 'long-enough', is_admin: true },
    });
    expect(extra.status).toBe(400);
  });

  it('lists everyone for list-user holders, sorted, searched and paged on the server', async () => {
    for (const n of ['zoe', 'yann', 'xena']) {
      await server.call('POST', '/api/user', {
        token: admin,
        body: { email: `${n}@example.test`, password: 'password-123', name: n.toUpperCase() },
      });
    }
    const all = await server.call<UserList>('GET', '/api/user', { token: admin });
    expect(all.body.total).toBe(all.body.users.length);
    expect(all.body.users.map((u) => u.email)).toEqual([...all.body.users.map((u) => u.email)].sort());
    const page = await server.call<UserList>('GET', '/api/user?sort=email&order=desc&limit=2&offset=1', {
      token: admin,
    });
    expect(page.body.users.map((u) => u.email)).toEqual(['yann@example.test', 'xena@example.test']);
    expect(page.body.total).toBe(all.body.total);
    const search = await server.call<UserList>('GET', '/api/user?q=YAN', { token: admin });
    expect(search.body.users.map((u) => u.email)).toEqual(['yann@example.test']);
    const wildcard = await server.call<UserList>('GET', '/api/user?q=%25', { token: admin });
    expect(wildcard.body.total).toBe(0);
    expect((await server.call('GET', '/api/user?limit=0', { token: admin })).status).toBe(400);
  });

  it('shows a user without list-user only themselves', async () => {
    const nina = await server.login('nina@example.test', 'nina-password');
    const res = await server.call<UserList>('GET', '/api/user', { token: nina });
    expect(res.body.users.map((u) => u.email)).toEqual(['nina@example.test']);
    expect(res.body.total).toBe(1);
  });

  it('lets anyone read their own roles but not another’s without list-user-role', async () => {
    const nina = await server.login('nina@example.test', 'nina-password');
    const own = await server.call<{ roles: { name: string }[] }>('GET', '/api/user/nina@example.test/role', {
      token: nina,
    });
    expect(own.body.roles.map((r) => r.name)).toEqual(['user']);
    expect((await server.call('GET', `/api/user/${ADMIN.email}/role`, { token: nina })).status).toBe(403);
    const byAdmin = await server.call<{ roles: { name: string }[] }>('GET', `/api/user/${ADMIN.email}/role`, {
      token: admin,
    });
    expect(byAdmin.body.roles.map((r) => r.name)).toEqual(['admin', 'user']);
  });

  it('never lets the admin role lose its last holder, by role removal or deletion', async () => {
    const removal = await server.call<ErrorAnswer>('DELETE', `/api/user/${ADMIN.email}/role/admin`, { token: admin });
    expect(removal.status).toBe(409);
    expect(removal.body.message).toMatch(/at least one holder/);
    const self = await server.call<ErrorAnswer>('DELETE', `/api/user/${ADMIN.email}`, { token: admin });
    expect(self.status).toBe(409);
    expect(self.body.message).toMatch(/your own account/);
    await server.call('PUT', '/api/role/admin/users', { token: admin, body: { users: ['zoe@example.test'] } });
    const zoe = await server.login('zoe@example.test', 'password-123');
    expect((await server.call('DELETE', `/api/user/${ADMIN.email}/role/admin`, { token: zoe })).status).toBe(200);
    const last = await server.call<ErrorAnswer>('DELETE', '/api/user/zoe@example.test/role/admin', { token: zoe });
    expect(last.status).toBe(409);
    await server.call('PUT', '/api/role/admin/users', { token: zoe, body: { users: [ADMIN.email] } });
  });

  it('deletes a user, ends their sessions, and answers 404 for unknown emails', async () => {
    const xena = await server.login('xena@example.test', 'password-123');
    const res = await server.call<{ message: string }>('DELETE', '/api/user/xena@example.test', { token: admin });
    expect(res.body.message).toBe('User Deleted');
    expect((await server.call('GET', '/api/user/me', { token: xena })).status).toBe(401);
    expect((await server.call('DELETE', '/api/user/xena@example.test', { token: admin })).status).toBe(404);
  });

  it('keeps a user without modify-user from creating or deleting users', async () => {
    const nina = await server.login('nina@example.test', 'nina-password');
    expect(
      (
        await server.call('POST', '/api/user', {
          token: nina,
          body: { email: 'a@example.test', password: 'password-1' },
        })
      ).status,
    ).toBe(403);
    expect((await server.call('DELETE', '/api/user/yann@example.test', { token: nina })).status).toBe(403);
  });
});

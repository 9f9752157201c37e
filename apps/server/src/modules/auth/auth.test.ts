import { PERMISSIONS } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { BAD_CREDENTIALS } from './auth.service.js';

type LoginAnswer = {
  response: {
    user: {
      authentication_token: string;
      email: string;
      roles: { name: string; permissions: string[] }[];
      effectivePermissions: string[];
    };
  };
};
type ErrorAnswer = { message: string; errors?: string[]; response?: { errors: string[] } };

describe.each(DATABASES)('sign-in and tokens on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser('bob@example.test', 'bob-password-1');
  });
  afterAll(async () => server.stop());

  it('answers the user with a token, email, roles and every permission for the first admin', async () => {
    const res = await server.call<LoginAnswer>('POST', '/api/login?include_auth_token', { body: ADMIN });
    expect(res.status).toBe(200);
    const { user } = res.body.response;
    expect(user.email).toBe(ADMIN.email);
    expect(user.authentication_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user.roles.map((r) => r.name)).toEqual(['admin', 'user']);
    expect([...user.effectivePermissions].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const res = await server.call('POST', '/api/login', {
      body: { email: `  ${ADMIN.email.toUpperCase()} `, password: ADMIN.password },
    });
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown email identically', async () => {
    const wrong = await server.call<ErrorAnswer>('POST', '/api/login', {
      body: { email: 'bob@example.test', password: 'nope-nope' },
    });
    const unknown = await server.call<ErrorAnswer>('POST', '/api/login', {
      body: { email: 'nobody@example.test', password: 'nope-nope' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.response?.errors).toEqual([BAD_CREDENTIALS]);
  });

  it('names each missing field in response.errors', async () => {
    const res = await server.call<ErrorAnswer>('POST', '/api/login', { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.response?.errors).toEqual(['Email is required', 'Password is required']);
  });

  it('refuses a token-less, forged or revoked token with 401, and takes x-auth-token too', async () => {
    expect((await server.call('GET', '/api/user/me')).status).toBe(401);
    expect(
      (await server.call('GET', '/api/user/me', { token: 'forged-token-forged-token-forged-token-000' })).status,
    ).toBe(401);
    const token = await server.login('bob@example.test', 'bob-password-1');
    const viaAlt = await server.call<{ user: { email: string } }>('GET', '/api/user/me', {
      headers: { 'x-auth-token': token },
    });
    expect(viaAlt.status).toBe(200);
    expect(viaAlt.body.user.email).toBe('bob@example.test');
    expect((await server.call('POST', '/api/logout', { token })).status).toBe(200);
    const after = await server.call<ErrorAnswer>('GET', '/api/user/me', { token });
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/Sign in again/);
  });

  it('stops accepting a token once it has expired', async () => {
    const token = await server.login('bob@example.test', 'bob-password-1');
    await server.services.database.query("UPDATE auth_tokens SET expires_at = now() - interval '1 second'");
    expect((await server.call('GET', '/api/user/me', { token })).status).toBe(401);
  });

  it('stores only a hash of each token', async () => {
    const token = await server.login();
    const rows = await server.services.database.query<{ token_hash: string }>('SELECT token_hash FROM auth_tokens');
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('stores passwords as argon2id hashes', async () => {
    const rows = await server.services.database.query<{ password_hash: string }>('SELECT password_hash FROM users');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('answers the security settings with their defaults', async () => {
    const token = await server.login();
    const res = await server.call('GET', '/api/security', { token });
    expect(res.body).toEqual({
      api_limit_single_use: false,
      api_limit_freshness: false,
      api_limit_endpoints: [],
      effectiveTokenMaxAge: 43200,
    });
  });
});

describe.each(DATABASES)('lockout and rate limits on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser('carol@example.test', 'carol-password');
  });
  afterAll(async () => server.stop());

  it('locks an email for 15 minutes after five failures, even against the right password, answering the one refusal', async () => {
    for (let i = 0; i < 4; i += 1) {
      expect(
        (await server.call('POST', '/api/login', { body: { email: 'carol@example.test', password: 'wrong-password' } }))
          .status,
      ).toBe(401);
    }
    const fifth = await server.call<ErrorAnswer>('POST', '/api/login', {
      body: { email: 'carol@example.test', password: 'wrong-password' },
    });
    expect(fifth.status).toBe(401);
    const right = await server.call<ErrorAnswer>('POST', '/api/login', {
      body: { email: 'carol@example.test', password: 'carol-password' },
    });
    expect(right.status).toBe(401);
    expect(right.body.message).toBe(BAD_CREDENTIALS);
    expect(right.body.message).toMatch(/locked for 15 minutes/);
  });

  it('locks an unknown email the same way, so a lock reveals nothing', async () => {
    const answers = [];
    for (let i = 0; i < 6; i += 1) {
      answers.push(
        await server.call<ErrorAnswer>('POST', '/api/login', {
          body: { email: 'ghost@example.test', password: 'wrong-password' },
        }),
      );
    }
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
  });

  it('clears the failure count after a successful sign-in', async () => {
    await server.createUser('dave@example.test', 'dave-password');
    for (let i = 0; i < 4; i += 1)
      await server.call('POST', '/api/login', { body: { email: 'dave@example.test', password: 'x-wrong-x' } });
    await server.login('dave@example.test', 'dave-password');
    const res = await server.call('POST', '/api/login', {
      body: { email: 'dave@example.test', password: 'x-wrong-x' },
    });
    expect(res.status).toBe(401);
  });
});

describe.each(DATABASES)('per-address rate limit on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { loginRateLimitPerMinute: 3 });
  });
  afterAll(async () => server.stop());

  it('answers 429 with Retry-After past the per-minute limit of one address', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await server.call('POST', '/api/login', { body: ADMIN })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const last = await server.call('POST', '/api/login', { body: ADMIN });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

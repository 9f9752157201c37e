import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { BAD_CREDENTIALS } from './auth.service.js';

type Answer = { message: string; response?: { errors: string[] } };

describe.each(DATABASES)('sign-in refusals tell an attacker nothing, on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser('kim@example.test', 'kim-password');
    await server.createUser('lee@example.test', 'lee-password');
    await server.createUser('max@example.test', 'max-password');
    await server.services.repositories.users.create(
      { email: 'una@example.test', name: null, passwordHash: null, emailVerified: false },
      ['user'],
    );
    const una = await server.services.repositories.users.findByEmail('una@example.test');
    const { hashPassword } = await import('./passwords.js');
    await server.services.repositories.users.setPasswordHash(una?.id ?? '', await hashPassword('una-password'));
  });
  afterAll(async () => server.stop());

  const login = (email: string, password: string) =>
    server.call<Answer>('POST', '/api/login', { body: { email, password } });

  it('every failed sign-in answers the same message', async () => {
    const answers: Record<string, Awaited<ReturnType<typeof login>>> = {};
    answers.unknown = await login('nobody@example.test', 'some-password');
    answers.wrongPassword = await login('kim@example.test', 'not-kims-password');
    answers.unverifiedRightPassword = await login('una@example.test', 'una-password');
    for (let i = 0; i < 5; i += 1) await login('lee@example.test', 'wrong-password');
    answers.lockedRightPassword = await login('lee@example.test', 'lee-password');
    // Single sign-on as the method: a non-administrator's right password is refused alike.
    await server.services.repositories.settings.put('auth', { auth_type: 3 });
    answers.ssoOnRightPassword = await login('max@example.test', 'max-password');
    answers.ssoOnWrongPassword = await login('max@example.test', 'not-maxs-password');
    // The break-glass administrator keeps their password.
    expect((await login(ADMIN.email, ADMIN.password)).status).toBe(200);
    await server.services.repositories.settings.put('auth', { auth_type: 1 });

    for (const [why, answer] of Object.entries(answers)) {
      expect(answer.status, why).toBe(401);
      expect(answer.body, why).toMatchObject({ message: BAD_CREDENTIALS, response: { errors: [BAD_CREDENTIALS] } });
      expect(answer.body, why).toEqual(answers.unknown?.body);
      expect(answer.headers.get('retry-after'), why).toBeNull();
    }
    // What the one message tells a real user to do.
    expect(BAD_CREDENTIALS).toMatch(/open the link in the mail/);
    expect(BAD_CREDENTIALS).toMatch(/single sign-on/);
    expect(BAD_CREDENTIALS).toMatch(/locked for 15 minutes/);
  });

  it('a right password refused while single sign-on is on issues no token', async () => {
    const before = await server.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = 'max@example.test'",
    );
    await server.services.repositories.settings.put('auth', { auth_type: 4 });
    expect((await login('max@example.test', 'max-password')).status).toBe(401);
    await server.services.repositories.settings.put('auth', { auth_type: 1 });
    const after = await server.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = 'max@example.test'",
    );
    expect(after[0]?.n).toBe(before[0]?.n);
  });
});

describe.each(DATABASES)('current-password checks share the sign-in lockout, on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser('nina@example.test', 'nina-password');
    await server.createUser('omar@example.test', 'omar-password');
  });
  afterAll(async () => server.stop());

  it('a wrong current password counts toward the lockout', async () => {
    const token = await server.login('nina@example.test', 'nina-password');
    const change = (password: string) =>
      server.call<Answer>('POST', '/api/user/password', {
        token,
        body: { password, new_password: 'nina-new-password', new_password_confirm: 'nina-new-password' },
      });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await change(`guess-number-${i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    // Locked now: the right current password does not help, nor does signing in again.
    const right = await change('nina-password');
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/Too many wrong passwords/);
    expect(
      (await server.call('POST', '/api/login', { body: { email: 'nina@example.test', password: 'nina-password' } }))
        .status,
    ).toBe(401);
  });

  it('a wrong password in the Authorize dialog counts toward the lockout too', async () => {
    const token = await server.login('omar@example.test', 'omar-password');
    for (let i = 0; i < 5; i += 1)
      await server.call('POST', '/api/auth/authorize', { token, body: { password: `guess-${i}` } });
    const right = await server.call<Answer>('POST', '/api/auth/authorize', {
      token,
      body: { password: 'omar-password' },
    });
    expect(right.status).toBe(429);
    expect(
      (await server.call('POST', '/api/login', { body: { email: 'omar@example.test', password: 'omar-password' } }))
        .status,
    ).toBe(401);
  });
});

describe.each(DATABASES)('current-password checks share the per-address limit, on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { loginRateLimitPerMinute: 3 });
  });
  afterAll(async () => server.stop());

  it('password-change guesses from one address are limited like sign-ins', async () => {
    const token = await server.login();
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push(
        (
          await server.call('POST', '/api/user/password', {
            token,
            body: {
              password: `guess-${i}`,
              new_password: 'another-password',
              new_password_confirm: 'another-password',
            },
          })
        ).status,
      );
    // One sign-in and two guesses used the address's three; the third guess is refused by address.
    expect(statuses).toEqual([400, 400, 429]);
    const res = await server.call<Answer>('POST', '/api/user/password', {
      token,
      body: { password: ADMIN.password, new_password: 'another-password', new_password_confirm: 'another-password' },
    });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/from your address/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { codeFor, enrolTotp, forgetLastStep } from '../../test/two-factor.js';

type SignedIn = { response: { user: { authentication_token: string; two_factor?: string } } };
type Listed = { users: { email: string; two_factor: { totp: boolean; passkeys: number } }[] };

/** An administrator resets another user's second factors (issue 20), through the real server. */
describe.each(DATABASES)('second-factor reset on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  const userId = async (email: string) =>
    (await server.services.database.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email]))[0]!.id;
  const countOf = async (table: string, email: string) =>
    Number(
      (
        await server.services.database.query<{ n: string | number }>(
          `SELECT count(*) AS n FROM ${table} WHERE user_id = $1`,
          [await userId(email)],
        )
      )[0]!.n,
    );
  const addPasskey = (email: string, credential: string) =>
    server.services.database.query(
      `INSERT INTO user_passkeys (user_id, credential_id, public_key, name)
       SELECT id, $2, 'AAAA', 'Key' FROM users WHERE email = $1`,
      [email, credential],
    );

  it('the users list shows each user’s authenticator app and passkey count', async () => {
    await server.createUser('lia@example.test', 'lia-password-12');
    await enrolTotp(server, await server.login('lia@example.test', 'lia-password-12'));
    await addPasskey('lia@example.test', 'lia-key-1');
    await addPasskey('lia@example.test', 'lia-key-2');
    const list = await server.call<Listed>('GET', '/api/user?q=lia', { token: await server.login() });
    expect(list.status).toBe(200);
    expect(list.body.users.find((u) => u.email === 'lia@example.test')?.two_factor).toEqual({
      totp: true,
      passkeys: 2,
    });
    const admin = (await server.call<Listed>('GET', '/api/user?q=admin', { token: await server.login() })).body
      .users[0];
    expect(admin?.two_factor).toEqual({ totp: false, passkeys: 0 });
  });

  it('a reset removes the app, passkeys and recovery codes, ends sessions and is audited', async () => {
    await server.createUser('max@example.test', 'max-password-12');
    const session = await server.login('max@example.test', 'max-password-12');
    const { recovery } = await enrolTotp(server, session);
    expect(recovery.length).toBeGreaterThan(0);
    await addPasskey('max@example.test', 'max-key');
    const admin = await server.login();
    const reset = await server.call<{ message: string }>('DELETE', '/api/user/max@example.test/two-factor', {
      token: admin,
    });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toMatch(/max@example\.test/);
    for (const table of ['user_totp', 'user_passkeys', 'user_recovery_codes', 'auth_tokens'])
      expect(await countOf(table, 'max@example.test'), table).toBe(0);
    expect((await server.call('GET', '/api/user/two-factor', { token: session })).status).toBe(401);
    // Without a requiring role they sign in with the password alone again.
    const again = await server.call<SignedIn>('POST', '/api/login', {
      body: { email: 'max@example.test', password: 'max-password-12' },
    });
    expect(again.status).toBe(200);
    expect(again.body.response.user.two_factor).toBeUndefined();
    const [entry] = await server.services.database.query<{
      actor: string;
      target: string;
      outcome: string;
      detail: unknown;
    }>(
      `SELECT actor, target, outcome, detail FROM audit_log WHERE action = 'user.two-factor.reset' ORDER BY id DESC LIMIT 1`,
    );
    expect(entry).toMatchObject({ actor: 'admin@example.test', target: 'max@example.test', outcome: 'success' });
    expect(JSON.stringify(entry!.detail)).toContain('"passkeys":1');
  });

  it('a user whose role requires a factor must enrol again after a reset', async () => {
    const admin = await server.login();
    await server.createUser('req@example.test', 'req-password-12', { permissions: ['list-agent'] });
    const roles = await server.call<{ roles: { name: string; permissions: string[] }[] }>('GET', '/api/role', {
      token: admin,
    });
    const role = roles.body.roles.filter((r) => r.permissions.join() === 'list-agent').at(-1)!.name;
    const { secret } = await enrolTotp(server, await server.login('req@example.test', 'req-password-12'));
    expect(
      (await server.call('PUT', `/api/role/${role}/two-factor`, { token: admin, body: { required: true } })).status,
    ).toBe(200);
    const gate = async () =>
      (
        await server.call<{ two_factor?: string }>('GET', '/api/agent', {
          token: await server.login('req@example.test', 'req-password-12'),
        })
      ).body.two_factor;
    expect(await gate()).toBe('verify');
    expect((await server.call('DELETE', '/api/user/req@example.test/two-factor', { token: admin })).status).toBe(200);
    // The existing enrolment path: nothing but setting up a factor until they have one.
    expect(await gate()).toBe('enrol');
    // The old app's code no longer proves anything.
    await forgetLastStep(server, 'req@example.test');
    const old = await server.call('POST', '/api/auth/second-factor', {
      token: await server.login('req@example.test', 'req-password-12'),
      body: { code: codeFor(secret) },
    });
    expect(old.status).toBeGreaterThanOrEqual(400);
    expect(old.status).toBeLessThan(500);
  });

  it('an unknown user is a 404, a malformed one a 400, one’s own account a 409; never a 500', async () => {
    const admin = await server.login();
    const unknown = await server.call<{ message: string }>('DELETE', '/api/user/nobody@example.test/two-factor', {
      token: admin,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/nobody@example\.test/);
    for (const bad of ['not-an-email', '%00', 'a'.repeat(400) + '@x.test'])
      expect((await server.call('DELETE', `/api/user/${bad}/two-factor`, { token: admin })).status, bad).toBe(400);
    const own = await server.call<{ message: string }>('DELETE', '/api/user/admin@example.test/two-factor', {
      token: admin,
    });
    expect(own.status).toBe(409);
    expect(own.body.message).toMatch(/My account/);
  });
});

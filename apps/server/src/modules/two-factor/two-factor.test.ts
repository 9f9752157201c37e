import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { codeFor, enrolTotp, forgetLastStep } from '../../test/two-factor.js';

type SignedIn = {
  response: { user: { authentication_token: string; second_factor?: string[]; effectivePermissions: string[] } };
};

describe.each(DATABASES)('two-factor sign-in on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  const login = (email: string, password: string) =>
    server.call<SignedIn>('POST', '/api/login', { body: { email, password } });
  const second = (token: string, body: unknown) =>
    server.call<SignedIn & { message: string; two_factor?: string }>('POST', '/api/auth/second-factor', {
      token,
      body,
    });

  it('enrols an authenticator app with a QR-ready URI and answers ten recovery codes once', async () => {
    await server.createUser('ada@example.test', 'ada-password-123');
    const token = await server.login('ada@example.test', 'ada-password-123');
    const { secret, uri, recovery } = await enrolTotp(server, token);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Gatehouse:ada%40example\.test\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(recovery).toHaveLength(10);
    expect(recovery[0]).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const status = await server.call('GET', '/api/user/two-factor', { token });
    expect(status.body).toEqual({ totp: true, passkeys: [], recovery_codes_left: 10, required: false });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    // A second enrolment over a confirmed one is refused.
    expect((await server.call('POST', '/api/user/two-factor/totp', { token })).status).toBe(409);
  });

  it('asks for the code after the password, and the waiting token reaches nothing else', async () => {
    await server.createUser('bob@example.test', 'bob-password-123');
    const { secret } = await enrolTotp(server, await server.login('bob@example.test', 'bob-password-123'));
    const first = await login('bob@example.test', 'bob-password-123');
    expect(first.status).toBe(200);
    const pending = first.body.response.user;
    expect(pending.second_factor).toEqual(['totp', 'recovery-code']);
    expect(pending.effectivePermissions).toEqual([]);
    const refused = await server.call<{ message: string; two_factor?: string }>('GET', '/api/user/me', {
      token: pending.authentication_token,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.two_factor).toBe('verify');
    expect(refused.body.message).toMatch(/Finish signing in first/);
    expect((await second(pending.authentication_token, { code: '000000' })).status).toBe(401);
    await forgetLastStep(server, 'bob@example.test');
    const done = await second(pending.authentication_token, { code: codeFor(secret) });
    expect(done.status).toBe(200);
    const session = done.body.response.user.authentication_token;
    expect(done.body.response.user.second_factor).toBeUndefined();
    expect((await server.call('GET', '/api/user/me', { token: session })).status).toBe(200);
    // The waiting token was used up.
    expect((await server.call('GET', '/api/user/me', { token: pending.authentication_token })).status).toBe(401);
  });

  it('takes a recovery code once in place of the app', async () => {
    await server.createUser('cy@example.test', 'cy-password-1234');
    const { recovery } = await enrolTotp(server, await server.login('cy@example.test', 'cy-password-1234'));
    const a = (await login('cy@example.test', 'cy-password-1234')).body.response.user.authentication_token;
    expect((await second(a, { code: recovery[0]!.toUpperCase() })).status).toBe(200);
    const b = (await login('cy@example.test', 'cy-password-1234')).body.response.user.authentication_token;
    const again = await second(b, { code: recovery[0] });
    expect(again.status).toBe(401);
    expect((await second(b, { code: recovery[1] })).status).toBe(200);
  });

  it('an administrator requiring two-factor for a role makes its members enrol before anything else', async () => {
    const admin = await server.login();
    await server.createUser('dee@example.test', 'dee-password-123', { permissions: ['list-host'] });
    const roles = await server.call<{ roles: { name: string; require_two_factor: boolean }[] }>('GET', '/api/role', {
      token: admin,
    });
    const role = roles.body.roles.find((r) => r.name.startsWith('test-role-'))!;
    expect(role.require_two_factor).toBe(false);
    const set = await server.call('PUT', `/api/role/${role.name}/two-factor`, {
      token: admin,
      body: { required: true },
    });
    expect(set.status).toBe(200);
    const token = await server.login('dee@example.test', 'dee-password-123');
    const blocked = await server.call<{ message: string; two_factor?: string }>('GET', '/api/agent', { token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.two_factor).toBe('enrol');
    expect(blocked.body.message).toMatch(/requires two-factor sign-in/);
    expect((await server.call('GET', '/api/user/me', { token })).status).toBe(200);
    const status = await server.call<{ required: boolean }>('GET', '/api/user/two-factor', { token });
    expect(status.body.required).toBe(true);
    await enrolTotp(server, token);
    expect((await server.call('GET', '/api/agent', { token })).status).toBe(200);
    // The last factor of someone who must have one cannot be removed.
    const removed = await server.call<{ message: string }>('DELETE', '/api/user/two-factor/totp', { token });
    expect(removed.status).toBe(409);
    expect(removed.body.message).toMatch(/requires a second factor/);
  });

  it('re-authorization asks for the second factor too', async () => {
    await server.createUser('eve@example.test', 'eve-password-123');
    const { secret } = await enrolTotp(server, await server.login('eve@example.test', 'eve-password-123'));
    const pending = (await login('eve@example.test', 'eve-password-123')).body.response.user.authentication_token;
    await forgetLastStep(server, 'eve@example.test');
    const token = (await second(pending, { code: codeFor(secret) })).body.response.user.authentication_token;
    const passwordOnly = await server.call<{ two_factor?: string; message: string }>('POST', '/api/auth/authorize', {
      token,
      body: { password: 'eve-password-123' },
    });
    expect(passwordOnly.status).toBe(401);
    expect(passwordOnly.body.two_factor).toBe('verify');
    const withCode = await server.call('POST', '/api/auth/authorize', {
      token,
      body: { password: 'eve-password-123', code: codeFor(secret, 1) },
    });
    expect(withCode.status).toBe(200);
  });

  it('asks someone whose only factor is a passkey for it after the password', async () => {
    await server.createUser('pia@example.test', 'pia-password-12');
    await server.services.database.query(
      `INSERT INTO user_passkeys (user_id, credential_id, public_key, name)
       SELECT id, 'pia-credential', 'AAAA', 'Laptop' FROM users WHERE email = 'pia@example.test'`,
    );
    const res = await login('pia@example.test', 'pia-password-12');
    expect(res.body.response.user.second_factor).toEqual(['passkey']);
    const options = await server.call<{ options: { allowCredentials: { id: string }[] } }>(
      'POST',
      '/api/auth/second-factor/options',
      { token: res.body.response.user.authentication_token },
    );
    expect(options.status).toBe(200);
    expect(options.body.options.allowCredentials.map((c) => c.id)).toEqual(['pia-credential']);
  });

  it('a user without a second factor signs in as before', async () => {
    const res = await login(ADMIN.email, ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.body.response.user.second_factor).toBeUndefined();
  });
});

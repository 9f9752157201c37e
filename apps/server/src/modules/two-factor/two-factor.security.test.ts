import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { hashToken } from '../auth/tokens.js';
import { codeFor, enrolTotp, forgetLastStep } from '../../test/two-factor.js';

type SignedIn = { response: { user: { authentication_token: string } } };

/**
 * Attacks on the second factor: a code replayed, codes guessed, another user's factors used or
 * removed, the factor removed with a stolen session, the seed read at rest or in the log, and a
 * role's requirement lifted by someone who could not grant the role.
 */
describe.each(DATABASES)('two-factor attacks on %s', (kind) => {
  let server: TestServer;
  const printed: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(kind, { logLevel: 'info' }, { logOut: { write: (c: string) => printed.push(c) } });
  });
  afterAll(async () => server.stop());

  const pendingOf = async (email: string, password: string) =>
    (await server.call<SignedIn>('POST', '/api/login', { body: { email, password } })).body.response.user
      .authentication_token;
  const second = (token: string, body: unknown) =>
    server.call<SignedIn & { message: string }>('POST', '/api/auth/second-factor', { token, body });
  /** Makes a token look issued `minutes` ago. */
  const age = (token: string, minutes: number) =>
    server.services.database.query(
      `UPDATE auth_tokens SET created_at = now() - make_interval(mins => ${minutes}) WHERE token_hash = $1`,
      [hashToken(token)],
    );

  it('a code that signed in once cannot sign in again within its window (replay)', async () => {
    await server.createUser('rita@example.test', 'rita-password-1');
    const { secret } = await enrolTotp(server, await server.login('rita@example.test', 'rita-password-1'));
    await forgetLastStep(server, 'rita@example.test');
    const code = codeFor(secret);
    expect((await second(await pendingOf('rita@example.test', 'rita-password-1'), { code })).status).toBe(200);
    const replayed = await second(await pendingOf('rita@example.test', 'rita-password-1'), { code });
    expect(replayed.status).toBe(401);
    expect(replayed.body.message).toMatch(/used already/);
    // Nor an earlier code of the window once a later one was accepted.
    const later = codeFor(secret, 1);
    expect((await second(await pendingOf('rita@example.test', 'rita-password-1'), { code: later })).status).toBe(200);
    expect((await second(await pendingOf('rita@example.test', 'rita-password-1'), { code })).status).toBe(401);
  });

  it('guessing codes locks the account after five wrong ones, even for the right code', async () => {
    await server.createUser('gus@example.test', 'gus-password-12');
    const { secret } = await enrolTotp(server, await server.login('gus@example.test', 'gus-password-12'));
    await forgetLastStep(server, 'gus@example.test');
    const pending = await pendingOf('gus@example.test', 'gus-password-12');
    const right = codeFor(secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await second(pending, { code: wrong })).status);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const locked = await second(pending, { code: right });
    expect(locked.status).toBe(429);
    // The password step is locked too.
    expect(
      (await server.call('POST', '/api/login', { body: { email: 'gus@example.test', password: 'gus-password-12' } }))
        .status,
    ).toBe(401);
  });

  it('another user’s recovery codes and passkeys are out of reach', async () => {
    await server.createUser('amy@example.test', 'amy-password-12');
    await server.createUser('ben@example.test', 'ben-password-12');
    const amy = await enrolTotp(server, await server.login('amy@example.test', 'amy-password-12'));
    const benToken = await server.login('ben@example.test', 'ben-password-12');
    await enrolTotp(server, benToken);
    // Amy's recovery code does not finish Ben's sign-in.
    const benPending = await pendingOf('ben@example.test', 'ben-password-12');
    expect((await second(benPending, { code: amy.recovery[0] })).status).toBe(401);
    // Amy's code does not either.
    await forgetLastStep(server, 'amy@example.test');
    expect((await second(benPending, { code: codeFor(amy.secret) })).status).toBe(401);
    // A passkey of Amy's (stored as registration would) cannot be removed by Ben, nor offered to him.
    const [row] = await server.services.database.query<{ id: string }>(
      `INSERT INTO user_passkeys (user_id, credential_id, public_key, name)
       SELECT id, 'amy-credential', 'AAAA', 'Amy''s key' FROM users WHERE email = 'amy@example.test' RETURNING id`,
    );
    const ben = benToken;
    const removal = await server.call('DELETE', `/api/user/passkeys/${row!.id}`, { token: ben });
    expect(removal.status).toBe(404);
    const options = await server.call('POST', '/api/auth/second-factor/options', { token: ben });
    expect(options.status).toBe(409);
    expect(JSON.stringify(options.body)).not.toContain('amy-credential');
    expect((await server.services.database.query(`SELECT 1 FROM user_passkeys WHERE id = $1`, [row!.id])).length).toBe(
      1,
    );
  });

  it('removing the authenticator app needs a re-authorization that proves it', async () => {
    await server.createUser('tom@example.test', 'tom-password-12');
    const stolen = await server.login('tom@example.test', 'tom-password-12');
    const { secret } = await enrolTotp(server, stolen);
    await age(stolen, 10);
    const stale = await server.call<{ reauth?: string }>('DELETE', '/api/user/two-factor/totp', { token: stolen });
    expect(stale.status).toBe(401);
    expect(stale.body.reauth).toBe('freshness');
    // Whoever holds the session and the password still lacks the code.
    const passwordOnly = await server.call<{ two_factor?: string }>('POST', '/api/auth/authorize', {
      token: stolen,
      body: { password: 'tom-password-12' },
    });
    expect(passwordOnly.status).toBe(401);
    expect(passwordOnly.body.two_factor).toBe('verify');
    const guessed = await server.call('POST', '/api/auth/authorize', {
      token: stolen,
      body: { password: 'tom-password-12', code: '123456' },
    });
    expect(guessed.status).toBe(401);
    expect((await server.call('DELETE', '/api/user/two-factor/totp', { token: stolen })).status).toBe(401);
    await forgetLastStep(server, 'tom@example.test');
    const fresh = await server.call<{ token: string }>('POST', '/api/auth/authorize', {
      token: stolen,
      body: { password: 'tom-password-12', code: codeFor(secret) },
    });
    expect(fresh.status).toBe(200);
    expect((await server.call('DELETE', '/api/user/two-factor/totp', { token: fresh.body.token })).status).toBe(200);
  });

  it('the seed is sealed at rest and never written to the log', async () => {
    await server.createUser('sam@example.test', 'sam-password-12');
    const { secret } = await enrolTotp(server, await server.login('sam@example.test', 'sam-password-12'));
    const [row] = await server.services.database.query<{ secret_sealed: string }>(
      `SELECT secret_sealed FROM user_totp WHERE user_id = (SELECT id FROM users WHERE email = 'sam@example.test')`,
    );
    expect(row!.secret_sealed).toMatch(/^v1:/);
    expect(row!.secret_sealed).not.toContain(secret);
    expect(server.services.box.open(row!.secret_sealed)).toBe(secret);
    const log = printed.join('');
    expect(log).toContain('/api/user/two-factor/totp'); // the log did record the calls
    expect(log).not.toContain(secret);
  });

  it('lifting a role’s requirement needs holding its permissions; requiring it does not', async () => {
    const admin = await server.login();
    await server.createUser('ops@example.test', 'ops-password-12', { permissions: ['manage-settings'] });
    await server.createUser('mod@example.test', 'mod-password-12', { permissions: ['modify-role'] });
    const roles = await server.call<{ roles: { name: string; permissions: string[] }[] }>('GET', '/api/role', {
      token: admin,
    });
    const opsRole = roles.body.roles.find((r) => r.permissions.join() === 'manage-settings')!.name;
    const mod = await server.login('mod@example.test', 'mod-password-12');
    expect(
      (await server.call('PUT', `/api/role/${opsRole}/two-factor`, { token: mod, body: { required: true } })).status,
    ).toBe(200);
    const lift = await server.call<{ message: string }>('PUT', `/api/role/${opsRole}/two-factor`, {
      token: mod,
      body: { required: false },
    });
    expect(lift.status).toBe(403);
    expect(lift.body.message).toMatch(/manage-settings/);
    expect(
      (await server.call('PUT', `/api/role/${opsRole}/two-factor`, { token: mod, body: { required: 'no' } })).status,
    ).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { hashToken } from '../auth/tokens.js';
import { enrolTotp } from '../../test/two-factor.js';

/**
 * Attacks on the administrator's second-factor reset (issue 20): a user manager reaching above
 * themselves, a plain user, a stolen stale administrator session, and sessions outliving a reset.
 */
describe.each(DATABASES)('second-factor reset attacks on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  const factors = async (email: string) =>
    Number(
      (
        await server.services.database.query<{ n: string | number }>(
          `SELECT (SELECT count(*) FROM user_totp t WHERE t.user_id = u.id) +
                  (SELECT count(*) FROM user_recovery_codes r WHERE r.user_id = u.id) AS n
             FROM users u WHERE u.email = $1`,
          [email],
        )
      )[0]!.n,
    );

  it('a user manager cannot reset the second factor of someone holding more permissions', async () => {
    await server.createUser('um@example.test', 'um-password-123', { permissions: ['modify-user', 'list-user'] });
    await server.createUser('ops@example.test', 'ops-password-12', { permissions: ['manage-settings'] });
    await enrolTotp(server, await server.login('ops@example.test', 'ops-password-12'));
    const manager = await server.login('um@example.test', 'um-password-123');
    const refused = await server.call<{ message: string }>('DELETE', '/api/user/ops@example.test/two-factor', {
      token: manager,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/manage-settings/);
    // Nor an administrator's.
    expect((await server.call('DELETE', '/api/user/admin@example.test/two-factor', { token: manager })).status).toBe(
      403,
    );
    expect(await factors('ops@example.test')).toBeGreaterThan(1);
    // Someone holding no more than the manager can be reset by them.
    await server.createUser('pat@example.test', 'pat-password-12');
    await enrolTotp(server, await server.login('pat@example.test', 'pat-password-12'));
    expect((await server.call('DELETE', '/api/user/pat@example.test/two-factor', { token: manager })).status).toBe(200);
    expect(await factors('pat@example.test')).toBe(0);
  });

  it('a user without modify-user cannot reset anyone’s second factor', async () => {
    await server.createUser('viewer@example.test', 'viewer-password', { permissions: ['list-user'] });
    await server.createUser('kim@example.test', 'kim-password-12');
    await enrolTotp(server, await server.login('kim@example.test', 'kim-password-12'));
    const viewer = await server.login('viewer@example.test', 'viewer-password');
    expect((await server.call('DELETE', '/api/user/kim@example.test/two-factor', { token: viewer })).status).toBe(403);
    expect((await server.call('DELETE', '/api/user/kim@example.test/two-factor')).status).toBe(401);
    expect(await factors('kim@example.test')).toBeGreaterThan(1);
  });

  it('a stale administrator session cannot reset a second factor without re-authorizing', async () => {
    await server.createUser('joe@example.test', 'joe-password-12');
    await enrolTotp(server, await server.login('joe@example.test', 'joe-password-12'));
    const stolen = await server.login();
    await server.services.database.query(
      `UPDATE auth_tokens SET created_at = now() - interval '10 minutes' WHERE token_hash = $1`,
      [hashToken(stolen)],
    );
    const stale = await server.call<{ reauth?: string }>('DELETE', '/api/user/joe@example.test/two-factor', {
      token: stolen,
    });
    expect(stale.status).toBe(401);
    expect(stale.body.reauth).toBe('freshness');
    expect(await factors('joe@example.test')).toBeGreaterThan(1);
  });

  it('a reset revokes the user’s sessions, and live connections are told in the same transaction', async () => {
    await server.createUser('eve@example.test', 'eve-password-12');
    const first = await server.login('eve@example.test', 'eve-password-12');
    await enrolTotp(server, first);
    const before = await server.services.database.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM rights_changes`,
    );
    const revoked: string[] = [];
    const original = server.services.liveRights.tokenRevoked.bind(server.services.liveRights);
    server.services.liveRights.tokenRevoked = (hash: string) => {
      revoked.push(hash);
      original(hash);
    };
    try {
      expect(
        (await server.call('DELETE', '/api/user/eve@example.test/two-factor', { token: await server.login() })).status,
      ).toBe(200);
    } finally {
      server.services.liveRights.tokenRevoked = original;
    }
    expect((await server.call('GET', '/api/user/two-factor', { token: first })).status).toBe(401);
    expect(revoked).toContain(hashToken(first));
    const after = await server.services.database.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM rights_changes`,
    );
    expect(Number(after[0]!.n)).toBeGreaterThan(Number(before[0]!.n));
  });
});

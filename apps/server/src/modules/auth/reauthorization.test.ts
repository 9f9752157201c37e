import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Authorized = { token: string; kind: string; expires_at: string };

describe.each(DATABASES)('re-authorization on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  const authorize = (token: string, password: string = ADMIN.password) =>
    server.call<Authorized>('POST', '/api/auth/authorize', { token, body: { password } });
  const saveSecurity = (token: string, body: unknown) =>
    server.call<{ message: string; reauth?: string }>('POST', '/api/security', { token, body });

  /** Makes a token look issued `minutes` ago. */
  const age = async (token: string, minutes: number) => {
    const { hashToken } = await import('./tokens.js');
    await server.services.database.query(
      `UPDATE auth_tokens SET created_at = now() - make_interval(mins => ${minutes}) WHERE token_hash = '${hashToken(token)}'`,
    );
  };

  it('needs fresh authentication to save the security settings', async () => {
    const token = await server.login();
    await age(token, 10);
    const stale = await saveSecurity(token, { effectiveTokenMaxAge: 7200 });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({
      reauth: 'freshness',
      message: expect.stringMatching(/Authorization needed/) as unknown,
    });
    expect((await authorize(token, 'wrong-password')).status).toBe(401);
    const fresh = await authorize(token);
    expect(fresh.status).toBe(200);
    expect(fresh.body.kind).toBe('session');
    // The new token replaces the old one.
    expect((await server.call('GET', '/api/user/me', { token })).status).toBe(401);
    const saved = await saveSecurity(fresh.body.token, { effectiveTokenMaxAge: 7200 });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Configuration saved.');
    expect((await server.call('GET', '/api/security', { token: fresh.body.token })).body).toMatchObject({
      effectiveTokenMaxAge: 7200,
    });
  });

  it('refuses a limited endpoint whose path is not a regular expression, naming it', async () => {
    const token = await server.login();
    const res = await saveSecurity(token, { api_limit_endpoints: [{ method: 'POST', path: '^/api/(user' }] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/\^\/api\/\(user is not a valid regular expression/);
    expect((await saveSecurity(token, { api_limit_endpoints: [{ method: 'PATCH', path: 'x' }] })).status).toBe(400);
    expect((await saveSecurity(token, { effectiveTokenMaxAge: 5 })).status).toBe(400);
    expect((await saveSecurity(token, { unknown: true })).status).toBe(400);
  });

  it('with single-use on, a listed call takes a one-shot token exactly once', async () => {
    const token = await server.login();
    expect(
      (
        await saveSecurity(token, {
          api_limit_single_use: true,
          api_limit_endpoints: [{ method: 'post', path: '^/api/apikey$' }],
        })
      ).status,
    ).toBe(200);
    // The settings are read again within two seconds of a change on any instance.
    await new Promise((r) => setTimeout(r, 2100));
    const plain = await server.call<{ reauth?: string; message: string }>('POST', '/api/apikey', {
      token,
      body: { description: 'needs authorization' },
    });
    expect(plain.status).toBe(401);
    expect(plain.body).toMatchObject({ reauth: 'single-use' });
    // Calls that are not listed go on with the normal token.
    expect((await server.call('GET', '/api/apikey', { token })).status).toBe(200);
    const oneShot = await authorize(token);
    expect(oneShot.body.kind).toBe('oneshot');
    const first = await server.call('POST', '/api/apikey', {
      token: oneShot.body.token,
      body: { description: 'authorized' },
    });
    expect(first.status).toBe(201);
    const again = await server.call<{ message: string }>('POST', '/api/apikey', {
      token: oneShot.body.token,
      body: { description: 'replayed' },
    });
    expect(again.status).toBe(401);
    // The normal token still works after a one-shot authorization.
    expect((await server.call('GET', '/api/user/me', { token })).status).toBe(200);
    const race = await authorize(token);
    const both = await Promise.all(
      [1, 2].map(() => server.call('POST', '/api/apikey', { token: race.body.token, body: { description: 'race' } })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 401]);
    const off = await authorize(token);
    expect((await saveSecurity(off.body.token, { api_limit_single_use: false, api_limit_endpoints: [] })).status).toBe(
      200,
    );
  });

  it('with freshness on, a listed call needs a recently issued token', async () => {
    let token = await server.login();
    expect(
      (
        await saveSecurity(token, {
          api_limit_freshness: true,
          api_limit_endpoints: [{ method: '*', path: '^/api/apikey' }],
        })
      ).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await server.call('GET', '/api/apikey', { token })).status).toBe(200);
    await age(token, 6);
    const stale = await server.call<{ reauth?: string }>('GET', '/api/apikey', { token });
    expect(stale.body).toMatchObject({ reauth: 'freshness' });
    token = (await authorize(token)).body.token;
    expect((await server.call('GET', '/api/apikey', { token })).status).toBe(200);
    // A broad pattern never locks out re-authorizing itself.
    expect((await saveSecurity(token, { api_limit_endpoints: [{ method: '*', path: '.*' }] })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    await age(token, 6);
    expect((await server.call('GET', '/api/user/me', { token })).status).toBe(401);
    const renewed = await authorize(token);
    expect(renewed.status).toBe(200);
    expect((await saveSecurity(renewed.body.token, { api_limit_freshness: false })).status).toBe(200);
  });
});

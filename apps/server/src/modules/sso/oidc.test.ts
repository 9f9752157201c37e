import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { type OidcIdp, startOidcIdp } from '../../test/oidc-idp.js';
import { codeFor, enrolTotp, forgetLastStep } from '../../test/two-factor.js';

type TokenAnswer = {
  purpose: string;
  kind: string;
  response: { user: { email: string; authentication_token: string; roles: { name: string }[] } };
};

const BASE = 'http://console.example.test';

describe.each(DATABASES)('OpenID Connect sign-in against oidc-provider on %s', (kind) => {
  let server: TestServer;
  let idp: OidcIdp;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    await server.services.repositories.roles.ensure('auditor', ['list-recording'], false);
    await server.call('POST', '/api/group', { token: admin, body: { name: 'ops' } });
    idp = await startOidcIdp(`${BASE}/sso/oidc/callback`, {
      dana: { email: 'dana@example.test', name: 'Dana OIDC', groups: ['auditor', 'ops', 'not-a-role'] },
      mallory: { email: 'mallory@example.test', name: 'Mallory', groups: [] },
      unverified: { email: 'unverified@example.test', name: 'U', groups: [], email_verified: false },
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await idp?.stop();
  });

  /** Starts a flow as a browser would; answers the provider address and the browser's binding cookie. */
  async function start(purpose: 'signin' | 'authorize', token?: string) {
    const res = await server.call<{ redirect_url: string }>('POST', '/sso/start', { token, body: { purpose } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gh_sso_flow='));
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
    return { url: res.body.redirect_url, cookie: (cookie ?? '').split(';')[0] ?? '' };
  }

  /** Follows the provider's redirect back to this server (its public address is a test name). */
  async function callback(back: URL, cookie: string) {
    expect(back.origin + back.pathname).toBe(`${BASE}/sso/oidc/callback`);
    const res = await server.call('GET', back.pathname + back.search, { headers: { cookie } });
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    const done = res.headers.getSetCookie().find((c) => c.startsWith('gh_sso_done='));
    return {
      location,
      done: done?.split(';')[0],
      error: new URL(location.replace('/#/', '/')).searchParams.get('error'),
    };
  }

  const ssoToken = (done: string | undefined) =>
    server.call<TokenAnswer>('GET', '/sso/token', { headers: done ? { cookie: done } : {} });

  it('refuses to start before single sign-on is configured, and tests the discovery document', async () => {
    const res = await server.call('POST', '/sso/start', { body: { purpose: 'signin' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/not configured/);
    const bad = await server.call<{ ok: boolean; message: string }>('POST', '/sso/config/test-oidc', {
      token: admin,
      body: { well_known_url: `${idp.issuer}/nothing-here/.well-known/openid-configuration` },
    });
    expect(bad.body.ok).toBe(false);
    expect(bad.body.message).toMatch(/Could not read/);
    const good = await server.call<{ ok: boolean; issuer: string }>('POST', '/sso/config/test-oidc', {
      token: admin,
      body: { well_known_url: idp.wellKnownUrl },
    });
    expect(good.body).toMatchObject({ ok: true, issuer: idp.issuer });
    const remote = await server.call<{ ok: boolean; message: string }>('POST', '/sso/config/test-oidc', {
      token: admin,
      body: { well_known_url: 'http://idp.example.test/.well-known/openid-configuration' },
    });
    expect(remote.body.message).toMatch(/https/);
  });

  it('saves the provider with the secret sealed, and the sign-in screen learns it is OIDC', async () => {
    const saved = await server.call<{ config: Record<string, unknown> }>('POST', '/sso/config', {
      token: admin,
      body: {
        auth_type: 3,
        oidc_config: {
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          well_known_url: idp.wellKnownUrl,
          scope: 'openid email profile',
        },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.config).toMatchObject({
      auth_type: 3,
      oidc_config: { client_id: idp.clientId, client_secret_set: true },
      callback_urls: { oidc_redirect_uri: `${BASE}/sso/oidc/callback` },
    });
    expect(JSON.stringify(saved.body)).not.toContain(idp.clientSecret);
    expect((await server.call('GET', '/sso')).body).toEqual({ auth_type: 3 });
  });

  it('signs a user in with PKCE, state and nonce, creating the account with the roles and groups of their claims', async () => {
    const { url, cookie } = await start('signin');
    const auth = new URL(url);
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('state')?.length).toBeGreaterThan(20);
    expect(auth.searchParams.get('nonce')?.length).toBeGreaterThan(20);
    const back = await idp.signIn(url, 'dana');
    const { location, done, error } = await callback(back, cookie);
    expect(error).toBeNull();
    expect(location).toBe(`${BASE}/#/sso`);
    const token = await ssoToken(done);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ purpose: 'signin', kind: 'session' });
    const user = token.body.response.user;
    expect(user.email).toBe('dana@example.test');
    expect(user.roles.map((r) => r.name).sort()).toEqual(['auditor', 'user']);
    const me = await server.call<{ user: { name: string } }>('GET', '/api/user/me', {
      token: user.authentication_token,
    });
    expect(me.body.user.name).toBe('Dana OIDC');
    const local = await server.services.repositories.users.findByEmail('dana@example.test');
    expect(await server.services.repositories.groups.memberships(local?.id ?? '')).toContain('ops');
    // The completed sign-on is handed over once.
    const again = await ssoToken(done);
    expect(again.status).toBe(401);
    expect(JSON.stringify(again.body)).toMatch(/No completed single sign-on/);
    expect((await ssoToken(undefined)).status).toBe(401);
  });

  it('refuses a replayed callback, a changed state, and a callback in another browser', async () => {
    const first = await start('signin');
    const back = await idp.signIn(first.url, 'dana');
    expect((await callback(back, first.cookie)).error).toBeNull();
    const replay = await callback(back, first.cookie);
    expect(replay.error).toMatch(/expired, was already used, or its state does not match/);
    expect(replay.done).toBeUndefined();

    const second = await start('signin');
    const changed = await idp.signIn(second.url, 'dana');
    changed.searchParams.set('state', 'not-the-state-we-sent-at-all-aaaaaaaaaaa');
    expect((await callback(changed, second.cookie)).error).toMatch(/state does not match/);

    const third = await start('signin');
    const elsewhere = await idp.signIn(third.url, 'dana');
    expect((await callback(elsewhere, 'gh_sso_flow=another-browser')).error).toMatch(/another browser/);
  });

  it('refuses an ID token whose nonce does not match the one sent', async () => {
    const { url, cookie } = await start('signin');
    // The provider echoes the nonce it was sent; the flow here now expects another one.
    await server.services.database.db.execute(
      sql`UPDATE sso_flows SET data = jsonb_set(data, '{nonce}', '"a-different-nonce-than-the-provider-saw"')`,
    );
    const back = await idp.signIn(url, 'dana');
    const result = await callback(back, cookie);
    expect(result.error).toMatch(/nonce/);
    expect(result.done).toBeUndefined();
  });

  it('refuses an address the provider says is not verified, and a provider error', async () => {
    const { url, cookie } = await start('signin');
    const result = await callback(await idp.signIn(url, 'unverified'), cookie);
    expect(result.error).toMatch(/not verified/);
    expect(await server.services.repositories.users.findByEmail('unverified@example.test')).toBeUndefined();
    const denied = await server.call('GET', '/sso/oidc/callback?error=access_denied&state=unknown');
    expect(decodeURIComponent(denied.headers.get('location') ?? '')).toMatch(/refused the sign-in: access_denied/);
  });

  it('re-authorizes the signed-in user in the popup with a one-shot token, and only that user', async () => {
    const single = await server.call('POST', '/api/security', {
      token: await server.login(),
      body: { api_limit_single_use: true, api_limit_endpoints: [{ method: 'DELETE', path: '^/api/group/' }] },
    });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    const signedIn = await start('signin');
    const dana = await ssoToken((await callback(await idp.signIn(signedIn.url, 'dana'), signedIn.cookie)).done);
    const danaToken = dana.body.response.user.authentication_token;

    expect((await server.call('POST', '/sso/start', { body: { purpose: 'authorize' } })).status).toBe(401);
    const popup = await start('authorize', danaToken);
    const done = await callback(await idp.signIn(popup.url, 'dana'), popup.cookie);
    const oneShot = await ssoToken(done.done);
    expect(oneShot.body).toMatchObject({ purpose: 'authorize', kind: 'oneshot' });
    expect(oneShot.body.response.user.email).toBe('dana@example.test');
    // The session token is untouched by a one-shot authorization.
    expect((await server.call('GET', '/api/user/me', { token: danaToken })).status).toBe(200);

    const other = await start('authorize', danaToken);
    const wrong = await callback(await idp.signIn(other.url, 'mallory'), other.cookie);
    expect(wrong.error).toMatch(/as mallory@example.test, but this console is signed in as dana@example.test/);
    expect(wrong.done).toBeUndefined();
    await server.call('POST', '/api/security', {
      token: await server.login(),
      body: { api_limit_single_use: false, api_limit_endpoints: [] },
    });
  });

  it('re-authorizes a user with an authenticator app: the provider, then the code, audited', async () => {
    const signedIn = await start('signin');
    const dana = await ssoToken((await callback(await idp.signIn(signedIn.url, 'dana'), signedIn.cookie)).done);
    const session = dana.body.response.user.authentication_token;
    const { secret } = await enrolTotp(server, session);
    await forgetLastStep(server, 'dana@example.test');

    const popup = await start('authorize', session);
    const done = await callback(await idp.signIn(popup.url, 'dana'), popup.cookie);
    const answer = await server.call<{ kind: string; second_factor: { step: string; methods: string[] } }>(
      'GET',
      '/sso/token',
      { headers: { cookie: done.done ?? '' } },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ purpose: 'authorize', kind: 'second-factor' });
    expect(answer.body.second_factor.methods).toEqual(['totp', 'recovery-code']);
    const granted = await server.call<{ token: string; kind: string }>('POST', '/sso/second-factor', {
      token: session,
      body: { step: answer.body.second_factor.step, code: codeFor(secret) },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.kind).toBe('session');
    // The fresh session replaces the one that asked, as a password re-authorization's does.
    expect((await server.call('GET', '/api/user/me', { token: granted.body.token })).status).toBe(200);
    expect((await server.call('GET', '/api/user/me', { token: session })).status).toBe(401);
    const audit = await server.services.database.query<{ actor: string; outcome: string; detail: unknown }>(
      `SELECT actor, outcome, detail FROM audit_log WHERE action = 'sso.second-factor' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit[0]).toMatchObject({ actor: 'dana@example.test', outcome: 'success', detail: { method: 'code' } });
  });

  it('refuses bad input to /sso/start', async () => {
    for (const body of [{ purpose: 'steal' }, { purpose: 'signin', extra: 1 }, 'not json']) {
      const res = await server.call('POST', '/sso/start', typeof body === 'string' ? { rawBody: body } : { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

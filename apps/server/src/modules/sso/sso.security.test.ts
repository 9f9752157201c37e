import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { type OidcAccount, type OidcIdp, startOidcIdp } from '../../test/oidc-idp.js';
import type { Mail } from '../mail/mail.service.js';
import { ADMIN_NOT_MAPPED } from './external-accounts.js';

type TokenAnswer = { response: { user: { email: string; authentication_token: string; roles: { name: string }[] } } };

const BASE = 'http://console.example.test';

describe.each(DATABASES)('an identity provider cannot hijack accounts or make itself admin, on %s', (kind) => {
  let server: TestServer;
  let idp: OidcIdp;
  let admin: string;
  const mails: Mail[] = [];
  const accounts: Record<string, OidcAccount> = {
    noclaim: { email: 'noclaim@example.test', name: 'No Claim', groups: [], email_verified: null },
    victim: { email: 'victim@example.test', name: 'Victim', groups: [] },
    gwen: { email: 'gwen@example.test', name: 'Gwen', groups: ['ops', 'auditor'] },
    hal: { email: 'hal@example.test', name: 'Hal', groups: ['admin', 'Admin'] },
    ivy: { email: 'ivy@example.test', name: 'Ivy', groups: ['gh-admins'] },
    evil: { email: ADMIN.email, name: 'Not the admin', groups: ['admin'] },
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    vi.spyOn(server.services.mail, 'send').mockImplementation((mail: Mail) => {
      mails.push(mail);
      return Promise.resolve({ via: 'outbox' as const, where: 'test' });
    });
    await server.services.repositories.roles.ensure('auditor', ['list-recording'], false);
    for (const name of ['ops', 'manual'])
      expect((await server.call('POST', '/api/group', { token: admin, body: { name } })).status).toBe(201);
    idp = await startOidcIdp(`${BASE}/sso/oidc/callback`, accounts);
    const saved = await server.call('POST', '/sso/config', {
      token: admin,
      body: {
        auth_type: 3,
        oidc_config: { client_id: idp.clientId, client_secret: idp.clientSecret, well_known_url: idp.wellKnownUrl },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await idp?.stop();
  });

  /** One sign-in at the provider as `login`, as a browser would; the refusal shown, or the signed-in user. */
  async function signInAs(login: string) {
    const start = await server.call<{ redirect_url: string }>('POST', '/sso/start', { body: { purpose: 'signin' } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const cookie = (start.headers.getSetCookie().find((c) => c.startsWith('gh_sso_flow=')) ?? '').split(';')[0] ?? '';
    const back = await idp.signIn(start.body.redirect_url, login);
    const res = await server.call('GET', back.pathname + back.search, { headers: { cookie } });
    const location = res.headers.get('location') ?? '';
    const error = new URL(location.replace('/#/', '/')).searchParams.get('error');
    const done = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('gh_sso_done='))
      ?.split(';')[0];
    if (!done) return { error, user: undefined };
    const token = await server.call<TokenAnswer>('GET', '/sso/token', { headers: { cookie: done } });
    return { error, user: token.status === 200 ? token.body.response.user : undefined };
  }
  const rolesOf = (user: { roles: { name: string }[] } | undefined) => (user?.roles.map((r) => r.name) ?? []).sort();
  const groupsOf = async (email: string) => {
    const local = await server.services.repositories.users.findByEmail(email);
    return (await server.services.repositories.groups.memberships(local?.id ?? '')).sort();
  };

  it('OIDC refuses a token without email_verified', async () => {
    const { error, user } = await signInAs('noclaim');
    expect(user).toBeUndefined();
    expect(error).toMatch(/did not say that noclaim@example\.test is verified \(email_verified\)/);
    expect(await server.services.repositories.users.findByEmail('noclaim@example.test')).toBeUndefined();
  });

  it('single sign-on does not attach to an unverified local account', async () => {
    // The attacker signs up first with the victim's address and a password of their own, while
    // password sign-in was still the method (once single sign-on is on, sign-up is refused).
    await server.call('POST', '/api/settings', { token: admin, body: { allow_signup: true } });
    await server.call('POST', '/sso/config', { token: admin, body: { auth_type: 1 } });
    const signUp = await server.call('POST', '/api/users', {
      body: { email: 'victim@example.test', name: 'Attacker', password: 'attacker-password' },
    });
    expect(signUp.status).toBe(201);
    await server.call('POST', '/sso/config', { token: admin, body: { auth_type: 3 } });
    const squatted = await server.services.repositories.users.findByEmail('victim@example.test');
    const link = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text ?? '')?.[1] ?? '';

    const { error, user } = await signInAs('victim');
    expect(error).toBeNull();
    expect(user?.email).toBe('victim@example.test');
    expect(user?.roles.map((r) => r.name)).toEqual(['user']);
    const now = await server.services.repositories.users.findByEmail('victim@example.test');
    expect(now?.id).not.toBe(squatted?.id);
    expect(now?.passwordHash).toBeNull();
    expect(now?.emailVerified).toBe(true);
    // Nothing the attacker made still works: not the password, not the link mailed for the sign-up.
    const attacker = await server.call('POST', '/api/login', {
      body: { email: 'victim@example.test', password: 'attacker-password' },
    });
    expect(attacker.status).toBe(401);
    expect((await server.call('POST', '/api/user/verify-email', { body: { token: link } })).status).toBe(400);
  });

  it('a group the IdP stops sending is removed', async () => {
    const first = await signInAs('gwen');
    expect(rolesOf(first.user)).toEqual(['auditor', 'user']);
    expect(await groupsOf('gwen@example.test')).toEqual(['ops']);
    // A membership and a role given here, by an administrator, are not the provider's to take.
    await server.call('PUT', '/api/group/manual/users', { token: admin, body: { users: ['gwen@example.test'] } });
    await server.services.repositories.roles.ensure('reviewer', ['list-recording'], false);
    const gwen = await server.services.repositories.users.findByEmail('gwen@example.test');
    await server.services.repositories.users.addRole(gwen?.id ?? '', 'reviewer');

    accounts.gwen!.groups = [];
    const second = await signInAs('gwen');
    expect(rolesOf(second.user)).toEqual(['reviewer', 'user']);
    expect(await groupsOf('gwen@example.test')).toEqual(['manual']);
    // And it comes back when the provider sends it again.
    accounts.gwen!.groups = ['ops'];
    await signInAs('gwen');
    expect(await groupsOf('gwen@example.test')).toEqual(['manual', 'ops']);
  });

  it('an IdP group named admin does not give the admin role', async () => {
    const { error, user } = await signInAs('hal');
    expect(error).toBeNull();
    expect(rolesOf(user)).toEqual(['user']);
    // Only a group the administrator mapped explicitly does, and only while the provider sends it.
    const mapped = await server.call<{ config: { admin_groups: string[] } }>('POST', '/sso/config', {
      token: await server.login(),
      body: { admin_groups: ['gh-admins'] },
    });
    expect(mapped.body.config.admin_groups).toEqual(['gh-admins']);
    expect(rolesOf((await signInAs('hal')).user)).toEqual(['user']);
    expect(rolesOf((await signInAs('ivy')).user)).toEqual(['admin', 'user']);
    accounts.ivy!.groups = [];
    expect(rolesOf((await signInAs('ivy')).user)).toEqual(['user']);
  });

  it("an assertion naming the break-glass admin's email does not sign in as that admin", async () => {
    const { error, user } = await signInAs('evil');
    expect(user).toBeUndefined();
    expect(error).toBe(ADMIN_NOT_MAPPED);
    const local = await server.services.repositories.users.findByEmail(ADMIN.email);
    expect((await server.services.repositories.users.rolesOf(local?.id ?? '')).map((r) => r.name)).toEqual([
      'admin',
      'user',
    ]);
    expect(local?.passwordHash).toBeTruthy();
    expect(local?.lastExternalSignInAt).toBeNull();
  });

  it('refuses admin_groups that are not a list of names', async () => {
    const token = await server.login();
    for (const admin_groups of ['admins', [''], [42]]) {
      const res = await server.call<{ message: string }>('POST', '/sso/config', { token, body: { admin_groups } });
      expect(res.status, JSON.stringify(admin_groups)).toBe(400);
      expect(res.body.message).toMatch(/admin/);
    }
  });
});

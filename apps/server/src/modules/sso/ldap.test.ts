import fs from 'node:fs';
import { Attribute, Change, Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { SLAPD, type Slapd, startSlapd } from '../../test/slapd.js';
import { escapeFilter } from './ldap.service.js';

type SignIn = { response: { user: { email: string; roles: { name: string }[]; authentication_token: string } } };

describe.skipIf(!fs.existsSync(SLAPD)).each(DATABASES)('directory sign-in against slapd on %s', (kind) => {
  let server: TestServer;
  let slapd: Slapd;
  let admin: string;
  beforeAll(async () => {
    slapd = await startSlapd();
    await slapd.add(
      [
        `dn: uid=dana,ou=people,${slapd.baseDn}`,
        'objectClass: inetOrgPerson',
        'uid: dana',
        'cn: Dana Directory',
        'sn: Directory',
        'mail: dana@example.test',
        'userPassword: dana-directory-password',
        '',
        `dn: uid=eli,ou=people,${slapd.baseDn}`,
        'objectClass: inetOrgPerson',
        'uid: eli',
        'cn: Eli',
        'sn: Plain',
        'mail: eli@example.test',
        'userPassword: eli-directory-password',
        '',
        `dn: cn=auditor,ou=groups,${slapd.baseDn}`,
        'objectClass: groupOfNames',
        'cn: auditor',
        `member: uid=dana,ou=people,${slapd.baseDn}`,
        '',
        `dn: cn=ops,ou=groups,${slapd.baseDn}`,
        'objectClass: groupOfNames',
        'cn: ops',
        `member: uid=dana,ou=people,${slapd.baseDn}`,
        '',
        // A directory group merely named admin: it must give nothing (issue 14).
        `dn: cn=admin,ou=groups,${slapd.baseDn}`,
        'objectClass: groupOfNames',
        'cn: admin',
        `member: uid=dana,ou=people,${slapd.baseDn}`,
        '',
      ].join('\n'),
    );
    server = await startTestServer(kind);
    admin = await server.login();
    await server.services.repositories.roles.ensure('auditor', ['list-recording'], false);
    await server.call('POST', '/api/group', { token: admin, body: { name: 'ops' } });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    slapd?.stop();
  });

  const ldapLogin = (email: string, password: string) =>
    server.call<SignIn>('POST', '/ldap/login?include_auth_token', { body: { email, password } });

  it('refuses directory sign-in until it is configured', async () => {
    const res = await ldapLogin('dana@example.test', 'dana-directory-password');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/not configured/);
  });

  it('tests the connection, reporting a wrong service password and then success', async () => {
    const base = {
      ldap_host: slapd.host,
      ldap_bind_user: slapd.adminDn,
      ldap_base_dn: slapd.baseDn,
      ldap_use_ssl: false,
    };
    const wrong = await server.call<{ ok: boolean; message: string }>('POST', '/sso/config/test-ldap', {
      token: admin,
      body: { ...base, ldap_bind_password: 'nope' },
    });
    expect(wrong.body.ok).toBe(false);
    expect(wrong.body.message).toMatch(/Could not bind/);
    const right = await server.call<{ ok: boolean; users_found: number }>('POST', '/sso/config/test-ldap', {
      token: admin,
      body: { ...base, ldap_bind_password: slapd.adminPassword },
    });
    expect(right.body).toMatchObject({ ok: true, users_found: 2 });
    const saved = await server.call<{ config: Record<string, unknown> }>('POST', '/sso/config', {
      token: admin,
      body: { auth_type: 4, ldap_config: { ...base, ldap_bind_password: slapd.adminPassword } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.config).toMatchObject({ auth_type: 4, ldap_config: { ldap_bind_password_set: true } });
    expect(JSON.stringify(saved.body)).not.toContain(slapd.adminPassword);
    expect((await server.call('GET', '/sso')).body).toEqual({ auth_type: 4 });
  });

  it('signs a directory user in, creating the account with the roles and groups of their directory groups', async () => {
    const res = await ldapLogin('Dana@Example.test', 'dana-directory-password');
    expect(res.status).toBe(200);
    const user = res.body.response.user;
    expect(user.email).toBe('dana@example.test');
    expect(user.roles.map((r) => r.name).sort()).toEqual(['auditor', 'user']);
    const me = await server.call<{ user: { name: string } }>('GET', '/api/user/me', {
      token: user.authentication_token,
    });
    expect(me.body.user.name).toBe('Dana Directory');
    const local = await server.services.repositories.users.findByEmail('dana@example.test');
    expect(await server.services.repositories.groups.memberships(local?.id ?? '')).toContain('ops');
    // Directory-only accounts hold what the directory gives: out of the group, out of the role.
    expect(local?.passwordHash).toBeNull();
  });

  it('refuses a wrong password, an empty one, an unknown user and a filter injection alike', async () => {
    for (const [email, password] of [
      ['dana@example.test', 'wrong'],
      ['dana@example.test', ''],
      ['nobody@example.test', 'dana-directory-password'],
      ['*', 'dana-directory-password'],
      ['dana@example.test)(uid=*', 'dana-directory-password'],
    ]) {
      const res = await ldapLogin(email ?? '', password ?? '');
      expect([400, 401], `${email}`).toContain(res.status);
      expect(JSON.stringify(res.body)).not.toMatch(/dana-directory-password/);
    }
    expect(escapeFilter('a*(b)\\')).toBe('a\\2a\\28b\\29\\5c');
  });

  it('keeps passwords for administrators only once a directory is configured', async () => {
    await server.createUser('local@example.test', 'local-password');
    const local = await server.call('POST', '/api/login?include_auth_token', {
      body: { email: 'local@example.test', password: 'local-password' },
    });
    // Refused with the one sign-in refusal (which says to use the directory), so it tells nothing more.
    expect(local.status).toBe(401);
    expect(JSON.stringify(local.body)).toMatch(/single sign-on or a directory, use that sign-in/);
    expect((await server.login()).length).toBeGreaterThan(20);
  });

  it('a directory group named admin does not give the admin role', async () => {
    const res = await ldapLogin('dana@example.test', 'dana-directory-password');
    expect(res.status).toBe(200);
    expect(res.body.response.user.roles.map((r) => r.name)).not.toContain('admin');
  });

  it('a group the directory stops sending is removed', async () => {
    const local = await server.services.repositories.users.findByEmail('dana@example.test');
    expect(await server.services.repositories.groups.memberships(local?.id ?? '')).toContain('ops');
    const directory = new Client({ url: slapd.url });
    try {
      await directory.bind(slapd.adminDn, slapd.adminPassword);
      for (const group of ['ops', 'auditor'])
        await directory.modify(
          `cn=${group},ou=groups,${slapd.baseDn}`,
          // groupOfNames needs a member: Eli takes Dana's place.
          new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'member', values: [`uid=eli,ou=people,${slapd.baseDn}`] }),
          }),
        );
    } finally {
      await directory.unbind();
    }
    const res = await ldapLogin('dana@example.test', 'dana-directory-password');
    expect(res.status).toBe(200);
    expect(res.body.response.user.roles.map((r) => r.name)).toEqual(['user']);
    expect(await server.services.repositories.groups.memberships(local?.id ?? '')).not.toContain('ops');
  });
});

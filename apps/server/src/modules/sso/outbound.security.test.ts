import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Tested = { ok: boolean; message: string };
type Config = {
  message: string;
  config: {
    ldap_config: { ldap_host: string; ldap_bind_password_set: boolean };
    oidc_config: { well_known_url: string; client_secret_set: boolean };
  };
};

const BIND_PASSWORD = 'stored-bind-password-4711';
const CLIENT_SECRET = 'stored-client-secret-4711';
const BANNER = 'SSH-2.0-ForeignBanner_9.9 secret-internal-build';

/** A TCP service on loopback that greets with a banner and records every byte it is sent. */
async function bannerService() {
  const received: Buffer[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.write(`${BANNER}\r\n`);
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    seen: () => ({ connections, bytes: Buffer.concat(received).toString('latin1') }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An HTTP server on loopback that answers every request with a page of its own words. */
async function foreignWebServer() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', server: BANNER });
    res.end(JSON.stringify({ issuer: BANNER, error: BANNER }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening on it (taken, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(DATABASES)('outbound connections an administrator configures, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let sso: string;
  let banner: Awaited<ReturnType<typeof bannerService>>;
  let web: Awaited<ReturnType<typeof foreignWebServer>>;
  let savedLdapPort: number;
  beforeAll(async () => {
    banner = await bannerService();
    web = await foreignWebServer();
    savedLdapPort = await closedPort();
    server = await startTestServer(kind);
    admin = await server.login();
    await server.createUser('sso-editor@example.test', 'sso-editor-password', { permissions: ['manage-sso-config'] });
    sso = await server.login('sso-editor@example.test', 'sso-editor-password');
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await banner?.close();
    await web?.close();
  });

  const saveConfig = (token: string, body: Record<string, unknown>) =>
    server.call<Config>('POST', '/sso/config', { token, body });
  const testLdap = (body: Record<string, unknown>) =>
    server.call<Tested>('POST', '/sso/config/test-ldap', { token: sso, body });
  const storeDirectory = async () => {
    const saved = await saveConfig(admin, {
      ldap_config: {
        ldap_host: `127.0.0.1:${savedLdapPort}`,
        ldap_bind_user: 'cn=gatehouse,dc=example,dc=test',
        ldap_bind_password: BIND_PASSWORD,
        ldap_base_dn: 'dc=example,dc=test',
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.config.ldap_config.ldap_bind_password_set).toBe(true);
  };

  it('the stored directory bind password is never sent to another host or for another account', async () => {
    await storeDirectory();
    for (const body of [
      { ldap_host: `127.0.0.1:${banner.port}` },
      { ldap_host: `localhost:${banner.port}` },
      { ldap_host: `127.0.0.1:${banner.port}`, ldap_bind_user: 'cn=gatehouse,dc=example,dc=test' },
      { ldap_bind_user: 'cn=someone-else,dc=example,dc=test' },
    ]) {
      const res = await testLdap(body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.ok).toBe(false);
      expect(res.body.message).toMatch(/enter the password to test another host or account/);
    }
    expect(banner.seen().connections).toBe(0);
    expect(banner.seen().bytes).not.toContain(BIND_PASSWORD);
  });

  it('changing the directory host or service account drops the stored bind password', async () => {
    await storeDirectory();
    const moved = await saveConfig(admin, { ldap_config: { ldap_host: `127.0.0.1:${banner.port}` } });
    expect(moved.status).toBe(200);
    expect(moved.body.config.ldap_config.ldap_bind_password_set).toBe(false);
    expect(moved.body.message).toMatch(/directory bind password was removed because the server or account changed/);
    // Whatever is tried next, the old password is gone: a test against the new host sends none.
    await testLdap({});
    expect(banner.seen().bytes).not.toContain(BIND_PASSWORD);

    await storeDirectory();
    const account = await saveConfig(admin, { ldap_config: { ldap_bind_user: 'cn=other,dc=example,dc=test' } });
    expect(account.body.config.ldap_config.ldap_bind_password_set).toBe(false);
    // An unchanged host (as typed differently) keeps it; so does a change that brings a new password.
    await storeDirectory();
    const same = await saveConfig(admin, {
      ldap_config: { ldap_host: ` 127.0.0.1:${savedLdapPort} `, ldap_use_ssl: false },
    });
    expect(same.body.config.ldap_config.ldap_bind_password_set).toBe(true);
    const withNew = await saveConfig(admin, {
      ldap_config: { ldap_host: `127.0.0.1:${banner.port}`, ldap_bind_password: 'a-new-password' },
    });
    expect(withNew.body.config.ldap_config.ldap_bind_password_set).toBe(true);
    expect(withNew.body.message).toBe('Configuration saved.');
  });

  it('changing the OpenID provider or client id drops the stored client secret', async () => {
    const first = await saveConfig(admin, {
      oidc_config: {
        client_id: 'gatehouse',
        client_secret: CLIENT_SECRET,
        well_known_url: `http://127.0.0.1:${savedLdapPort}/.well-known/openid-configuration`,
      },
    });
    expect(first.body.config.oidc_config.client_secret_set).toBe(true);
    const moved = await saveConfig(admin, {
      oidc_config: { well_known_url: `http://127.0.0.1:${web.port}/.well-known/openid-configuration` },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.config.oidc_config.client_secret_set).toBe(false);
    expect(moved.body.message).toMatch(/OpenID Connect client secret was removed/);
    expect(JSON.stringify(await server.services.repositories.settings.get('auth'))).not.toMatch(
      /client_secret_sealed":"/,
    );

    await saveConfig(admin, { oidc_config: { client_secret: CLIENT_SECRET } });
    const client = await saveConfig(admin, { oidc_config: { client_id: 'attacker-client' } });
    expect(client.body.config.oidc_config.client_secret_set).toBe(false);
  });

  it('connection tests answer in our words: no foreign banner, and a closed port reads like another service', async () => {
    const closed = await closedPort();
    const ldapAt = async (port: number) =>
      (
        await testLdap({
          ldap_host: `127.0.0.1:${port}`,
          ldap_bind_user: 'cn=probe',
          ldap_bind_password: 'probe-password',
          ldap_base_dn: 'dc=example,dc=test',
        })
      ).body;
    const toBanner = await ldapAt(banner.port);
    const toClosed = await ldapAt(closed);
    expect(toBanner.ok).toBe(false);
    expect(toBanner.message).not.toMatch(/ForeignBanner|secret-internal-build|SSH-2\.0/);
    // The same words whether something else answered or nothing did: no port scanner.
    expect(toBanner.message.replace(String(banner.port), 'PORT')).toBe(
      toClosed.message.replace(String(closed), 'PORT'),
    );

    const oidcAt = async (port: number) =>
      (
        await server.call<Tested>('POST', '/sso/config/test-oidc', {
          token: sso,
          body: { well_known_url: `http://127.0.0.1:${port}/.well-known/openid-configuration` },
        })
      ).body;
    const toWeb = await oidcAt(web.port);
    const toNothing = await oidcAt(closed);
    expect(toWeb.ok).toBe(false);
    expect(JSON.stringify(toWeb)).not.toMatch(/ForeignBanner|secret-internal-build/);
    expect(toWeb.message.replace(String(web.port), 'PORT')).toBe(toNothing.message.replace(String(closed), 'PORT'));
  });

  it('a holder of manage-sso-config cannot change the sign-in configuration', async () => {
    const before = JSON.stringify(await server.services.repositories.settings.get('auth'));
    for (const body of [
      { auth_type: 3 },
      { admin_groups: ['attackers'] },
      { oidc_config: { well_known_url: `http://127.0.0.1:${web.port}/.well-known/openid-configuration` } },
      { ldap_config: { ldap_user_object_filter: '(|(uid=mallory)(mail={email}))' } },
      { saml_config: { idp: { entityId: 'https://idp.evil.example.test' } } },
    ]) {
      const res = await saveConfig(sso, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.message).toMatch(/Only holders of the admin role may change the sign-in configuration/);
    }
    expect(JSON.stringify(await server.services.repositories.settings.get('auth'))).toBe(before);
    // Reading it and testing connections stay theirs.
    expect((await server.call('GET', '/sso/config', { token: sso })).status).toBe(200);
  });
});

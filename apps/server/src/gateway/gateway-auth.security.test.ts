import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { userKey } from '../test/sshd.js';

/** One login on the gateway with a real SSH client; true when it authenticates. */
function gatewayLogin(port: number, username: string, auth: { password: string } | { privateKey: Buffer }) {
  return new Promise<boolean>((resolve) => {
    const client = new ssh2.Client();
    client.on('ready', () => {
      client.end();
      resolve(true);
    });
    client.on('error', () => resolve(false));
    client.connect({ host: '127.0.0.1', port, username, tryKeyboard: false, readyTimeout: 10_000, ...auth });
  });
}

describe.each(DATABASES)('gateway logins share the console limits, on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { loginRateLimitPerMinute: 3 });
    await server.createUser('pat@example.test', 'pat-password');
  });
  afterAll(async () => server.stop());

  it('gateway password logins are limited per address', async () => {
    const port = server.sshPort;
    const results = [];
    for (let i = 0; i < 3; i += 1)
      results.push(await gatewayLogin(port, 'pat@example.test@web-01', { password: `guess-${i}` }));
    expect(results).toEqual([false, false, false]);
    // The address used its three attempts: the right password is refused on the gateway …
    expect(await gatewayLogin(port, 'pat@example.test@web-01', { password: 'pat-password' })).toBe(false);
    // … and the console sign-in from the same address shares the count.
    const console = await server.call<{ message: string }>('POST', '/api/login', { body: ADMIN });
    expect(console.status).toBe(429);
    expect(console.body.message).toMatch(/from your address/);
  });
});

describe.each(DATABASES)('gateway logins under single sign-on, on %s', (kind) => {
  let server: TestServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-gw-sso-'));
  const key = userKey(dir, 'quinn');
  const privateKey = fs.readFileSync(key.file);
  const setMethod = (authType: number) => server.services.repositories.settings.put('auth', { auth_type: authType });
  const lastSso = (sql: string) =>
    server.services.database.query(
      `UPDATE users SET last_external_sign_in_at = ${sql} WHERE email = 'quinn@example.test'`,
    );

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser('quinn@example.test', 'quinn-password');
    await server.createUser('rosa@example.test', 'rosa-password');
    const token = await server.login('quinn@example.test', 'quinn-password');
    const added = await server.call('POST', '/api/user/me/ssh-keys', {
      token,
      body: { name: 'k', public_key: key.publicKey },
    });
    expect(added.status).toBe(201);
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a non-administrator's password stops working on the gateway once single sign-on is on", async () => {
    const port = server.sshPort;
    expect(await gatewayLogin(port, 'quinn@example.test@web-01', { password: 'quinn-password' })).toBe(true);
    for (const method of [2, 3, 4]) {
      await setMethod(method);
      expect(
        await gatewayLogin(port, 'quinn@example.test@web-01', { password: 'quinn-password' }),
        `method ${method}`,
      ).toBe(false);
      // The break-glass administrator keeps their password.
      expect(await gatewayLogin(port, `${ADMIN.email}@web-01`, { password: ADMIN.password })).toBe(true);
    }
    await setMethod(1);
  });

  it("with single sign-on on, a non-administrator's SSH key works only within 12 hours of their last sign-in through it", async () => {
    const port = server.sshPort;
    const login = () => gatewayLogin(port, 'quinn@example.test@web-01', { privateKey });
    expect(await login()).toBe(true);
    await setMethod(3);
    await lastSso('NULL');
    expect(await login()).toBe(false); // never signed in through the provider
    await lastSso("now() - interval '13 hours'");
    expect(await login()).toBe(false); // the provider has not vouched for them lately
    await lastSso("now() - interval '1 hour'");
    expect(await login()).toBe(true);
    await setMethod(1);
  });

  it('wrong gateway passwords lock the console sign-in of that email', async () => {
    const port = server.sshPort;
    for (let i = 0; i < 5; i += 1)
      expect(await gatewayLogin(port, 'rosa@example.test@web-01', { password: `guess-${i}` })).toBe(false);
    const res = await server.call('POST', '/api/login', {
      body: { email: 'rosa@example.test', password: 'rosa-password' },
    });
    expect(res.status).toBe(401);
    expect(await gatewayLogin(port, 'rosa@example.test@web-01', { password: 'rosa-password' })).toBe(false);
  });
});

import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BAD_CREDENTIALS } from '../auth/auth.service.js';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import type { Mail } from '../mail/mail.service.js';

type ErrorAnswer = { message: string; response?: { errors: string[] } };

/** Tries a password login on the SSH gateway with a real SSH client; true when it authenticates. */
export function gatewayPasswordLogin(port: number, username: string, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const client = new ssh2.Client();
    client.on('ready', () => {
      client.end();
      resolve(true);
    });
    client.on('error', () => resolve(false));
    client.connect({ host: '127.0.0.1', port, username, password, tryKeyboard: false, readyTimeout: 10_000 });
  });
}

describe.each(DATABASES)('sign-up proves the email before the account can do anything, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const mails: Mail[] = [];
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    // Whatever MailService does with a message (SMTP, outbox), the test reads what was sent.
    vi.spyOn(server.services.mail, 'send').mockImplementation((mail: Mail) => {
      mails.push(mail);
      return Promise.resolve({ via: 'outbox' as const, where: 'test' });
    });
    await server.call('POST', '/api/settings', { token: admin, body: { allow_signup: true } });
  });
  afterAll(async () => server.stop());

  const linkTokenTo = (email: string) => {
    const mail = mails.filter((m) => m.to === email).at(-1);
    const token = /#\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error(`no verification link mailed to ${email}`);
    return token;
  };
  const login = (email: string, password: string) =>
    server.call<ErrorAnswer & { response?: { user?: { authentication_token: string } } }>('POST', '/api/login', {
      body: { email, password },
    });

  it('an unverified sign-up cannot sign in or reach anything', async () => {
    const res = await server.call<{ message: string; email: string; token?: string }>('POST', '/api/users', {
      body: { email: 'Una@example.test', name: 'Una', password: 'una-password' },
    });
    expect(res.status).toBe(201);
    expect(res.body.token).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/authentication_token/);
    expect(res.body.message).toMatch(/Check your email at una@example\.test/);
    // The right password: refused like a wrong one, on the console and on the SSH gateway.
    const refused = await login('una@example.test', 'una-password');
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(BAD_CREDENTIALS);
    expect(await gatewayPasswordLogin(server.sshPort, 'una@example.test@web-01', 'una-password')).toBe(false);
    // The link: at least 128 bits, stored hashed, used once.
    const token = linkTokenTo('una@example.test');
    expect(token.length).toBeGreaterThanOrEqual(22);
    const stored = await server.services.database.query<{ token_hash: string }>(
      'SELECT token_hash FROM email_verifications',
    );
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    const opened = await server.call<{ message: string }>('POST', '/api/user/verify-email', { body: { token } });
    expect(opened.status).toBe(200);
    expect(opened.body.message).toMatch(/confirmed/);
    expect((await login('una@example.test', 'una-password')).status).toBe(200);
    expect(await gatewayPasswordLogin(server.sshPort, 'una@example.test@web-01', 'una-password')).toBe(true);
    const again = await server.call<ErrorAnswer>('POST', '/api/user/verify-email', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/invalid, already used or expired/);
  });

  it('a verification link stops working when it expires, and a guessed one never works', async () => {
    await server.call('POST', '/api/users', {
      body: { email: 'late@example.test', name: 'Late', password: 'late-password' },
    });
    const token = linkTokenTo('late@example.test');
    await server.services.database.query(
      "UPDATE email_verifications SET expires_at = now() - interval '1 second' WHERE used_at IS NULL",
    );
    expect((await server.call('POST', '/api/user/verify-email', { body: { token } })).status).toBe(400);
    expect((await login('late@example.test', 'late-password')).status).toBe(401);
    for (const body of [{ token: 'x'.repeat(43) }, { token: '' }, {}, { token: 'a', extra: 1 }]) {
      const res = await server.call<ErrorAnswer>('POST', '/api/user/verify-email', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message.length).toBeGreaterThan(0);
    }
  });

  it('a squatted address gives way once its link expires, so its owner can sign up', async () => {
    await server.call('POST', '/api/users', {
      body: { email: 'owner@example.test', name: 'Squatter', password: 'squatter-password' },
    });
    const blocked = await server.call('POST', '/api/users', {
      body: { email: 'owner@example.test', name: 'Owner', password: 'owner-password' },
    });
    expect(blocked.status).toBe(409);
    await server.services.database.query(
      "UPDATE users SET created_at = now() - interval '25 hours' WHERE email = 'owner@example.test'",
    );
    const owner = await server.call('POST', '/api/users', {
      body: { email: 'owner@example.test', name: 'Owner', password: 'owner-password' },
    });
    expect(owner.status).toBe(201);
    await server.call('POST', '/api/user/verify-email', { body: { token: linkTokenTo('owner@example.test') } });
    expect((await login('owner@example.test', 'squatter-password')).status).toBe(401);
    expect((await login('owner@example.test', 'owner-password')).status).toBe(200);
  });

  it('sign-up is refused while single sign-on or a directory is the sign-in method', async () => {
    await server.services.repositories.settings.put('auth', { auth_type: 3 });
    const res = await server.call<ErrorAnswer>('POST', '/api/users', {
      body: { email: 'sso-era@example.test', name: 'Late', password: 'late-password' },
    });
    await server.services.repositories.settings.put('auth', { auth_type: 1 });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/use that sign-in/);
    expect(await server.services.repositories.users.findByEmail('sso-era@example.test')).toBeUndefined();
  });

  it('a password reset link verifies the address too', async () => {
    await server.call('POST', '/api/users', {
      body: { email: 'rita@example.test', name: 'Rita', password: 'rita-password' },
    });
    await server.call('POST', '/api/user/rita@example.test/reset-password', { token: admin });
    const reset = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text ?? '')?.[1] ?? '';
    const res = await server.call('POST', '/api/user/reset-password', {
      body: { token: reset, new_password: 'rita-new-password', new_password_confirm: 'rita-new-password' },
    });
    expect(res.status).toBe(200);
    expect((await login('rita@example.test', 'rita-new-password')).status).toBe(200);
  });
});

import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { outbox } from '../../test/outbox.js';
import { hashToken } from '../auth/tokens.js';

type Saved = { message: string; smtp: { host: string; port: number; user: string; password_set?: boolean } };
type ErrorAnswer = { message: string; reauth?: string };

const SECRET = 'smtp-secret-value';

/**
 * The attacker's mail server, on loopback: it accepts any sign-in and any message, and records
 * every connection, every credential offered and every message, as a real one would.
 */
async function attackerSmtp() {
  const seen = { connections: 0, credentials: [] as string[], messages: [] as string[] };
  const server = new SMTPServer({
    allowInsecureAuth: true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, callback) {
      seen.connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      seen.credentials.push(`${auth.username ?? ''}:${auth.password ?? ''}`);
      callback(null, { user: auth.username ?? 'anyone' });
    },
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        seen.messages.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { seen, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.each(DATABASES)('settings that redirect mail or links on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let settingsManager: string;
  let attacker: Awaited<ReturnType<typeof attackerSmtp>>;
  beforeAll(async () => {
    attacker = await attackerSmtp();
    server = await startTestServer(kind);
    admin = await server.login();
    await server.createUser('mallory@example.test', 'mallory-password', { permissions: ['manage-settings'] });
    settingsManager = await server.login('mallory@example.test', 'mallory-password');
  });
  afterAll(async () => {
    await server.stop();
    await attacker.close();
  });
  beforeEach(() => {
    attacker.seen.connections = 0;
    attacker.seen.credentials.length = 0;
    attacker.seen.messages.length = 0;
  });

  const save = (token: string, body: Record<string, unknown>) =>
    server.call<Saved & ErrorAnswer>('POST', '/api/settings', { token, body });

  it("a holder of manage-settings cannot redirect the administrator's reset mail", async () => {
    for (const body of [
      { smtp: { host: '127.0.0.1', port: attacker.port } },
      { smtp: { port: attacker.port } },
      { smtp: { user: 'mallory', password: 'mallory-smtp' } },
      { smtp: { from: 'IT Support <it@evil.example.test>' } },
      { public_url: 'https://gatehouse.evil.example.test' },
      // A permitted change does not carry a forbidden one through.
      { allow_signup: true, smtp: { host: '127.0.0.1', port: attacker.port } },
    ]) {
      const res = await save(settingsManager, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.message).toMatch(/Only holders of the admin role may change .*(smtp|public_url)/);
      expect(res.body.message).toMatch(/Nothing was saved/);
    }
    const stored = await server.call<{ smtp: { host: string }; public_url: string; allow_signup: boolean }>(
      'GET',
      '/api/settings',
      { token: admin },
    );
    expect(stored.body).toMatchObject({ smtp: { host: '' }, public_url: '', allow_signup: false });
    // The administrator's reset mail still stays home, and its link points at the real console.
    await server.call('POST', '/api/user/forgot-password', { body: { email: ADMIN.email } });
    await new Promise((r) => setTimeout(r, 300));
    expect(attacker.seen.connections).toBe(0);
    const mail = (await outbox(server)).at(-1) ?? '';
    expect(mail).toContain(`To: ${ADMIN.email}`);
    expect(mail).toContain('http://console.example.test/#/reset-password?token=');
  });

  it('a holder of manage-settings still changes the other settings, and may resend mail settings unchanged', async () => {
    const current = await server.call<Record<string, unknown>>('GET', '/api/settings', { token: settingsManager });
    const res = await save(settingsManager, {
      idle_timeout_minutes: 7,
      smtp: current.body.smtp,
      public_url: current.body.public_url,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ idle_timeout_minutes: 7, message: 'Configuration saved.' });
  });

  it('changing smtp or public_url needs fresh authentication, even for an administrator', async () => {
    const stale = await server.login();
    await server.services.database.query(
      `UPDATE auth_tokens SET created_at = now() - interval '10 minutes' WHERE token_hash = '${hashToken(stale)}'`,
    );
    const res = await save(stale, { public_url: 'https://gatehouse.evil.example.test' });
    expect(res.status).toBe(401);
    expect(res.body.reauth).toBe('freshness');
    const stored = await server.call<{ public_url: string }>('GET', '/api/settings', { token: admin });
    expect(stored.body.public_url).toBe('');
  });

  it('changing the SMTP host drops the stored password', async () => {
    // Each way of pointing the stored password elsewhere: another host, another port, another account.
    const variants: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { host: 'mail.example.test', port: attacker.port, user: 'gatehouse' },
        { host: '127.0.0.1', port: attacker.port },
      ],
      [
        { host: '127.0.0.1', port: 1, user: 'gatehouse' },
        { host: '127.0.0.1', port: attacker.port },
      ],
      [{ host: '127.0.0.1', port: attacker.port, user: 'gatehouse' }, { user: 'someone-else' }],
    ];
    for (const [before, after] of variants) {
      const first = await save(admin, { smtp: { ...before, password: SECRET } });
      expect(first.body.smtp.password_set).toBe(true);
      const moved = await save(admin, { smtp: after });
      expect(moved.status).toBe(200);
      expect(moved.body.smtp.password_set, JSON.stringify(after)).toBe(false);
      expect(moved.body.message).toMatch(/SMTP password was removed/);
      // The server now sends mail to the new place: whatever it offers there is not the old password.
      // (With a user and no password it may not even sign in: a 503 in our words, not the old password.)
      const reset = await server.call('POST', '/api/user/mallory@example.test/reset-password', { token: admin });
      expect([200, 503]).toContain(reset.status);
      expect(attacker.seen.connections).toBeGreaterThan(0);
      expect(attacker.seen.credentials.join('\n')).not.toContain(SECRET);
      attacker.seen.connections = 0;
    }
  });

  it('a new password sent with the new host is kept, and a partial change keeps the other SMTP fields', async () => {
    const res = await save(admin, {
      smtp: { host: '127.0.0.1', port: attacker.port, user: 'gatehouse', password: SECRET },
    });
    expect(res.body.smtp).toMatchObject({ host: '127.0.0.1', port: attacker.port, password_set: true });
    const from = await save(admin, { smtp: { from: 'Gatehouse <noreply@example.test>' } });
    expect(from.body.smtp).toMatchObject({
      host: '127.0.0.1',
      port: attacker.port,
      user: 'gatehouse',
      password_set: true,
    });
    const kept = await save(admin, { smtp: { password: '' } });
    expect(kept.body.smtp).toMatchObject({ host: '127.0.0.1', password_set: true });
    await server.call('POST', '/api/user/mallory@example.test/reset-password', { token: admin });
    expect(attacker.seen.credentials).toContain(`gatehouse:${SECRET}`);
  });
});

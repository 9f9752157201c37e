import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { outbox, resetTokenOf, waitForMail } from '../../test/outbox.js';

type ErrorAnswer = { message: string; errors?: string[] };

describe.each(DATABASES)('password resets on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    await server.createUser('olga@example.test', 'olga-password');
  });
  afterAll(async () => server.stop());

  it('an administrator sends a reset link; without SMTP it lands in the outbox', async () => {
    const res = await server.call<{ message: string }>('POST', '/api/user/olga@example.test/reset-password', {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Password reset email sent to olga@example.test.');
    const [mail] = await waitForMail(server, 1);
    expect(mail).toContain('To: olga@example.test');
    expect(mail).toContain('http://console.example.test/#/reset-password?token=');
  });

  it('the link sets a new password once, ends every session, and the old password stops working', async () => {
    const session = await server.login('olga@example.test', 'olga-password');
    const token = resetTokenOf((await outbox(server)).at(-1) ?? '');
    expect(token.length).toBeGreaterThanOrEqual(22); // at least 128 bits in base64url
    const body = { token, new_password: 'olga-new-password', new_password_confirm: 'olga-new-password' };
    const first = await server.call<{ message: string }>('POST', '/api/user/reset-password', { body });
    expect(first.status).toBe(200);
    expect((await server.call('GET', '/api/user/me', { token: session })).status).toBe(401);
    const again = await server.call<ErrorAnswer>('POST', '/api/user/reset-password', { body });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/invalid, already used or expired/);
    expect(
      (await server.call('POST', '/api/login', { body: { email: 'olga@example.test', password: 'olga-password' } }))
        .status,
    ).toBe(401);
    await server.login('olga@example.test', 'olga-new-password');
  });

  it('a link older than an hour no longer works', async () => {
    await server.call('POST', '/api/user/olga@example.test/reset-password', { token: admin });
    const token = resetTokenOf((await waitForMail(server, 2)).at(-1) ?? '');
    await server.services.database.query("UPDATE password_reset_tokens SET expires_at = now() - interval '1 second'");
    const res = await server.call('POST', '/api/user/reset-password', {
      body: { token, new_password: 'another-password', new_password_confirm: 'another-password' },
    });
    expect(res.status).toBe(400);
  });

  it('forgot-password answers the same for an unknown email and sends nothing', async () => {
    const before = (await outbox(server)).length;
    const known = await server.call<{ message: string }>('POST', '/api/user/forgot-password', {
      body: { email: 'olga@example.test' },
    });
    const unknown = await server.call<{ message: string }>('POST', '/api/user/forgot-password', {
      body: { email: 'nobody@example.test' },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body.message).toBe(
      'Check your email at olga@example.test for information about how to reset your password.',
    );
    expect(unknown.body.message).toBe(
      'Check your email at nobody@example.test for information about how to reset your password.',
    );
    const mails = await waitForMail(server, before + 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(await outbox(server)).toHaveLength(before + 1);
    expect(mails.at(-1)).toContain('To: olga@example.test');
  });

  it('refuses mismatched passwords and a missing token', async () => {
    const mismatch = await server.call<ErrorAnswer>('POST', '/api/user/reset-password', {
      body: { token: 'x'.repeat(43), new_password: 'password-one', new_password_confirm: 'password-two' },
    });
    expect(mismatch.body.errors).toEqual(['Passwords do not match']);
    expect((await server.call('POST', '/api/user/reset-password', { body: {} })).status).toBe(400);
  });
});

describe.each(DATABASES)('sign-up and general settings on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
  });
  afterAll(async () => server.stop());

  const signUp = (email: string) =>
    server.call<ErrorAnswer & { token?: string }>('POST', '/api/users', {
      body: { email, name: 'Sam Lee', password: 'sam-password' },
    });

  it('is off by default', async () => {
    const res = await signUp('sam@example.test');
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/Sign-up is turned off/);
    const pub = await server.call('GET', '/api/settings/public');
    expect(pub.body).toEqual({ signin_banner: '', allow_signup: false });
  });

  it('once allowed, creates an unverified user with the role user and mails them a link instead of signing in', async () => {
    const saved = await server.call<{ message: string; allow_signup: boolean }>('POST', '/api/settings', {
      token: admin,
      body: { allow_signup: true },
    });
    expect(saved.body).toMatchObject({ message: 'Configuration saved.', allow_signup: true });
    const res = await server.call<{ message: string; email: string }>('POST', '/api/users', {
      body: { email: 'sam@example.test', name: 'Sam Lee', password: 'sam-password' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Check your email at sam@example.test: open the link we sent to confirm your address, then sign in.',
      email: 'sam@example.test',
    });
    const sam = await server.services.repositories.users.findByEmail('sam@example.test');
    expect(sam?.emailVerified).toBe(false);
    expect((await server.services.repositories.users.rolesOf(sam?.id ?? '')).map((r) => r.name)).toEqual(['user']);
    expect((await signUp('sam@example.test')).status).toBe(409);
  });

  it('never answers the SMTP password, and keeps it sealed at rest', async () => {
    const res = await server.call<{ smtp: Record<string, unknown> }>('POST', '/api/settings', {
      token: admin,
      body: { smtp: { host: 'mail.example.test', port: 2525, user: 'gatehouse', password: 'smtp-secret-value' } },
    });
    expect(res.body.smtp).toMatchObject({ host: 'mail.example.test', port: 2525, password_set: true });
    expect(res.body.smtp.password).toBeUndefined();
    const raw = await server.services.database.query<{ value: unknown }>(
      "SELECT value FROM settings WHERE key = 'general'",
    );
    expect(JSON.stringify(raw[0]?.value)).not.toContain('smtp-secret-value');
    const kept = await server.call<{ smtp: Record<string, unknown> }>('POST', '/api/settings', {
      token: admin,
      body: { smtp: { password: '' } },
    });
    expect(kept.body.smtp.password_set).toBe(true);
  });

  it('validates every field and refuses unknown ones', async () => {
    for (const body of [
      { idle_timeout_minutes: -1 },
      { recording_retention_days: 'ten' },
      { smtp: { port: 70000 } },
      { public_url: 'ftp://x' },
      { surprise: 1 },
    ]) {
      expect((await server.call('POST', '/api/settings', { token: admin, body })).status, JSON.stringify(body)).toBe(
        400,
      );
    }
  });
});

describe.each(DATABASES)('mail through a real SMTP server on %s', (kind) => {
  let server: TestServer;
  let smtp: SMTPServer;
  const received: { to: string; data: string }[] = [];
  beforeAll(async () => {
    // A real SMTP server (the smtp-server package) on loopback, receiving what nodemailer sends.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    server = await startTestServer(kind);
    await server.createUser('pia@example.test', 'pia-password');
    const admin = await server.login();
    await server.call('POST', '/api/settings', {
      token: admin,
      body: { smtp: { host: '127.0.0.1', port, from: 'Gatehouse <noreply@example.test>' } },
    });
  });
  afterAll(async () => {
    await server.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the reset link to the configured SMTP server', async () => {
    const admin = await server.login();
    const res = await server.call('POST', '/api/user/pia@example.test/reset-password', { token: admin });
    expect(res.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toBe('pia@example.test');
    expect(received[0]?.data).toMatch(/Subject: Reset your Gatehouse password/);
    expect(await outbox(server)).toHaveLength(0);
  });
});

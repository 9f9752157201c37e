import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../modules/auth/tokens.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { resetTokenOf, waitForMail } from '../test/outbox.js';
import { loggedUrl, scrubSecrets } from './logger.js';

/**
 * The log reader's attack: someone who reads the server's output (a log shipper, a support
 * bundle, kubectl logs) or the Status screen's component logs collects reset links, media
 * tickets and tokens, and uses them. Each test makes the server handle a secret for real, proves
 * the log did record that request (so the test can fail), then looks for the secret.
 */
describe.each(DATABASES)('no secret in any log on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const printed: string[] = [];
  beforeAll(async () => {
    // The process log is what the server writes to stdout: record it instead of printing it.
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    server = await startTestServer(kind, { logLevel: 'info' });
    admin = await server.login();
    await server.createUser('lena@example.test', 'lena-password');
  });
  afterAll(async () => {
    await server.stop();
    vi.restoreAllMocks();
  });

  const serverLog = () => printed.join('');
  const statusLog = async () => {
    const res = await server.call<{ pods: { logs: string[] }[] }>('GET', '/api/pods/api/logs?limit=500', {
      token: await server.login(),
    });
    expect(res.status).toBe(200);
    return (res.body.pods[0]?.logs ?? []).join('\n');
  };

  it('a password-reset link never appears in the server log or the status logs', async () => {
    const sent = await server.call('POST', '/api/user/lena@example.test/reset-password', { token: admin });
    expect(sent.status).toBe(200);
    await server.call('POST', '/api/user/forgot-password', { body: { email: 'lena@example.test' } });
    const mails = await waitForMail(server, 2);
    const tokens = mails.map(resetTokenOf);
    // Someone pastes the link into an API call: the query string is where it would leak.
    await server.call('GET', `/api/settings/public?token=${tokens[0]}`);
    const logs = [serverLog(), await statusLog()];
    for (const log of logs) {
      expect(log).toContain('mail kept in the outbox');
      expect(log).toContain('lena@example.test');
      expect(log).toContain('/api/settings/public');
      for (const token of tokens) expect(log).not.toContain(token);
      expect(log).not.toContain('reset-password?token=');
      expect(log).not.toContain('Open this link');
    }
  });

  it('a media ticket never appears in the request log', async () => {
    const recording = randomUUID();
    const { ticket } = server.services.mediaTickets.issue(hashToken(admin), recording);
    const res = await server.call('GET', `/api/recording/${recording}/cast?ticket=${encodeURIComponent(ticket)}`);
    expect(res.status).not.toBe(401); // the ticket was good: only the recording is missing
    for (const log of [serverLog(), await statusLog()]) {
      expect(log).toContain(`/api/recording/${recording}/cast`);
      expect(log).not.toContain(ticket);
      expect(log).not.toContain(ticket.slice(0, 24));
    }
  });

  it('a token never appears in the log, in a header, a query or an error', async () => {
    const oneShot = await server.call<{ token?: string; authentication_token?: string }>(
      'POST',
      '/api/auth/authorize',
      { token: admin, body: { password: 'first-admin-password' } },
    );
    await server.call('GET', `/api/user/me?x-auth-token=${admin}&authentication_token=${admin}`, {
      token: admin,
      headers: { cookie: `session=${admin}` },
    });
    // A library error that quotes the URL it failed on, as OIDC and HTTP clients do.
    server.services.log.error(
      { err: new Error(`GET https://idp.example.test/cb?code=the-code-value&state=the-state-value failed`) },
      'single sign-on failed',
    );
    const issued = JSON.stringify(oneShot.body);
    for (const log of [serverLog(), await statusLog()]) {
      expect(log).toContain('/api/user/me');
      expect(log).toContain('single sign-on failed');
      expect(log).not.toContain(admin);
      expect(log).not.toContain('the-code-value');
      expect(log).not.toContain('the-state-value');
      for (const value of issued.match(/[A-Za-z0-9_-]{32,}/g) ?? []) expect(log).not.toContain(value);
    }
  });
});

describe('log scrubbing', () => {
  it('keeps the path and drops the query of a logged URL', () => {
    expect(loggedUrl('/api/recording/1/cast?ticket=abc&x=1')).toBe('/api/recording/1/cast');
    expect(loggedUrl('/#/reset-password?token=abc')).toBe('/');
    expect(loggedUrl('/api/users')).toBe('/api/users');
  });

  it('replaces every credential-carrying parameter, in any case, wherever it stands', () => {
    const line = JSON.stringify({
      msg: 'x https://h/#/reset-password?token=T0KEN&a=1 /p?Ticket=TICK;code=C0DE&SAMLResponse=S4ML&state=ST4TE',
    });
    const out = scrubSecrets(line);
    for (const secret of ['T0KEN', 'TICK', 'C0DE', 'S4ML', 'ST4TE']) expect(out).not.toContain(secret);
    expect(out).toContain('a=1');
    expect(() => JSON.parse(out) as unknown).not.toThrow();
  });
});

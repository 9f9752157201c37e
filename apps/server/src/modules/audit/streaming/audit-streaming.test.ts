import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../server.js';
import {
  DATABASES,
  type TestServer,
  openTestDatabase,
  startInstances,
  startTestServer,
  testConfig,
} from '../../../test/harness.js';
import { RSYSLOGD, type Rsyslog, startRsyslog } from '../../../test/rsyslog.js';
import { AuditStreamer } from './audit-streamer.js';

const SECRET = 'a-webhook-secret-of-the-test-0123456789';

/** Waits until `check` holds, polling; fails with what it last saw. */
async function until<T>(what: string, read: () => Promise<T> | T, check: (value: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  let last: T = await read();
  while (!check(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    last = await read();
  }
  return last;
}

/** A webhook receiver that checks the signature and the timestamp, as a SIEM's would. */
async function startReceiver() {
  const received: { ids: number[]; bodies: string[]; verified: boolean[]; ages: number[] } = {
    ids: [],
    bodies: [],
    verified: [],
    ages: [],
  };
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (status !== 200) {
        res.writeHead(status).end();
        return;
      }
      const timestamp = Number(req.headers['x-gatehouse-timestamp']);
      const expected = `v1=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
      const given = String(req.headers['x-gatehouse-signature'] ?? '');
      received.verified.push(
        given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected)),
      );
      received.ages.push(Date.now() / 1000 - timestamp);
      received.bodies.push(body);
      for (const entry of (JSON.parse(body) as { entries: { id: number }[] }).entries) received.ids.push(entry.id);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`,
    received,
    answer: (code: number) => (status = code),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const off = { enabled: false, host: '', port: 514, tls: false, ca: '', facility: 'authpriv' };

describe.skipIf(!fs.existsSync(RSYSLOGD))('audit entries stream to Debian’s rsyslog', () => {
  let server: TestServer;
  let admin: string;
  let plain: Rsyslog;
  let secure: Rsyslog;
  const streaming = (body: unknown) => server.call('PUT', '/api/audit/streaming', { token: admin, body });
  const status = async () =>
    (
      await server.call<{ status: { syslog: Record<string, unknown> } }>('GET', '/api/audit/streaming', {
        token: admin,
      })
    ).body.status.syslog;

  beforeAll(async () => {
    [server, plain, secure] = await Promise.all([
      startTestServer('pglite'),
      startRsyslog({ tls: false }),
      startRsyslog({ tls: true }),
    ]);
    admin = await server.login();
  });
  afterAll(async () => {
    await server?.stop();
    await plain?.stop();
    await secure?.stop();
  });

  it('delivers the sign-in as RFC 5424 over TCP, and hostile text arrives as one escaped message', async () => {
    const res = await streaming({
      syslog: { enabled: true, host: '127.0.0.1', port: plain.port, tls: false, ca: '', facility: 'local4' },
      webhook: { enabled: false, url: '' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await server.login();
    await server.services.repositories.audit.append({
      actor: 'mallory@example.test\n<14>1 2030-01-01T00:00:00Z forged gatehouse - auth.login - INJECTED',
      action: 'user.created',
      target: '=HYPERLINK("http://evil.example")"] [x@1 a="b"]\r\nINJECTED',
      outcome: 'denied',
      detail: { note: '<script>alert(1)</script>\u2028INJECTED' },
    });
    const lines = await until(
      'rsyslog lines',
      () => plain.lines(),
      (l) => l.some((x) => x.includes('user.created')),
    );
    // Every line is one message of Gatehouse's: nothing was split off into a line of its own.
    expect(
      lines.every((line) => /^\d+\|gatehouse\|/.test(line)),
      lines.join('\n'),
    ).toBe(true);
    expect(lines.some((line) => line.includes('INJECTED') && !line.includes('user.created'))).toBe(false);
    const login = lines.find((line) => line.includes('|auth.login|'));
    // local4 (20) * 8 + info (6); the structured data parsed by rsyslog as RFC 5424.
    expect(login).toMatch(
      /^166\|gatehouse\|auth\.login\|\[gatehouse@32473 id="\d+" actor="admin@example.test" action="auth.login"/,
    );
    const hostile = lines.find((line) => line.includes('|user.created|'))!;
    expect(hostile.startsWith('164|')).toBe(true); // denied: warning
    expect(hostile).toContain('actor="mallory@example.test\\\\u000a<14>1');
    expect(hostile).toContain(
      'target="=HYPERLINK(\\"http://evil.example\\")\\"\\] [x@1 a=\\"b\\"\\]\\\\u000d\\\\u000aINJECTED"',
    );
    const json = JSON.parse(hostile.slice(hostile.indexOf('\uFEFF') + 1)) as { detail: { note: string } };
    expect(json.detail.note).toBe('<script>alert(1)</script>\u2028INJECTED');
    const state = await until('status', status, (s) => s.last_delivery_at !== null && s.pending === 0);
    expect(state).toMatchObject({ last_error: null });
  });

  it('delivers over TLS to rsyslog’s gtls listener, and refuses a certificate it cannot check', async () => {
    await streaming({ syslog: off, webhook: { enabled: false, url: '' } });
    // First without the collector's CA: the certificate is refused, the status says so and a retry is scheduled.
    await streaming({
      syslog: { enabled: true, host: '127.0.0.1', port: secure.port, tls: true, ca: '', facility: 'authpriv' },
      webhook: { enabled: false, url: '' },
    });
    await server.services.repositories.audit.append({ action: 'tls.probe', outcome: 'success', target: 'first' });
    const failed = await until('a TLS failure', status, (s) => s.last_error !== null);
    expect(String(failed.last_error)).toMatch(/certificate/i);
    expect(failed.next_attempt_at).not.toBeNull();
    expect(secure.lines()).toHaveLength(0);
    // With the CA: the waiting entry goes through on the next attempt.
    await streaming({
      syslog: { enabled: true, host: '127.0.0.1', port: secure.port, tls: true, ca: secure.ca, facility: 'authpriv' },
      webhook: { enabled: false, url: '' },
    });
    const lines = await until(
      'TLS delivery',
      () => secure.lines(),
      (l) => l.some((x) => x.includes('tls.probe')),
    );
    expect(lines.find((x) => x.includes('tls.probe'))).toMatch(/^86\|gatehouse\|tls\.probe\|\[gatehouse@32473 /);
  });
});

describe.each(DATABASES)('the signed webhook, durable and sent once, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const status = async () =>
    (
      await server.call<{ status: { webhook: Record<string, unknown> } }>('GET', '/api/audit/streaming', {
        token: admin,
      })
    ).body.status.webhook;

  beforeAll(async () => {
    [server, receiver] = await Promise.all([startTestServer(kind), startReceiver()]);
    admin = await server.login();
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });
  afterEach(() => receiver.answer(200));

  it('signs each delivery over timestamp and body, retries with backoff and shows the status', async () => {
    receiver.answer(503);
    const res = await server.call('PUT', '/api/audit/streaming', {
      token: admin,
      body: { syslog: off, webhook: { enabled: true, url: receiver.url, secret: SECRET } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await server.services.repositories.audit.append({ action: 'hook.probe', outcome: 'success' });
    const failing = await until('a failed delivery', status, (s) => s.last_error !== null);
    expect(failing).toMatchObject({ last_error: 'the webhook answered HTTP 503', last_delivery_at: null });
    expect(Date.parse(String(failing.next_attempt_at))).toBeGreaterThan(Date.now() - 1000);
    receiver.answer(200);
    const ok = await until('a delivery', status, (s) => s.last_delivery_at !== null && s.pending === 0, 30_000);
    expect(ok.next_attempt_at).toBeNull();
    expect(receiver.received.verified.length).toBeGreaterThan(0);
    expect(receiver.received.verified.every(Boolean)).toBe(true);
    expect(receiver.received.ages.every((age) => age >= -1 && age < 30)).toBe(true);
    expect(receiver.received.bodies.some((body) => body.includes('"hook.probe"'))).toBe(true);
  });

  it('never sends an entry twice when several streamers share the database', async () => {
    const s = server.services;
    const others = [1, 2].map(
      () =>
        new AuditStreamer(
          // The same settings, sinks and trail as the server's own streamer, as another instance has them.
          (s.auditStreamer as unknown as { store: never }).store,
          (s.auditStreamer as unknown as { sinks: never }).sinks,
          (s.auditStreamer as unknown as { list: never }).list,
          s.log,
          50,
        ),
    );
    others.forEach((o) => o.start());
    const before = receiver.received.ids.length;
    for (let i = 0; i < 40; i += 1) await s.repositories.audit.append({ action: 'hook.many', outcome: 'success' });
    await until(
      '40 deliveries',
      () => receiver.received.ids.length - before,
      (n) => n >= 40,
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await Promise.all(others.map((o) => o.close()));
    const ids = receiver.received.ids;
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('audit entries wait in SQL for a webhook that is down, across a restart', () => {
  it('delivers what was written before the restart, once', async () => {
    const { database, drop } = await openTestDatabase('pglite');
    const receiver = await startReceiver();
    const config = testConfig();
    try {
      receiver.answer(503);
      let server = await startServer(config, { database });
      const call = (token: string, method: string, path: string, body?: unknown) =>
        fetch(`${server.url}${path}`, {
          method,
          headers: { 'authentication-token': token, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const login = async () => {
        const res = await fetch(`${server.url}/api/login?include_auth_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: config.adminEmail, password: config.adminPassword }),
        });
        return ((await res.json()) as { response: { user: { authentication_token: string } } }).response.user
          .authentication_token;
      };
      const admin = await login();
      const saved = await call(admin, 'PUT', '/api/audit/streaming', {
        syslog: off,
        webhook: { enabled: true, url: receiver.url, secret: SECRET },
      });
      expect(saved.status).toBe(200);
      for (let i = 0; i < 5; i += 1)
        await server.services.repositories.audit.append({ action: 'restart.before', outcome: 'success' });
      await new Promise((resolve) => setTimeout(resolve, 3500));
      await server.close();
      expect(receiver.received.ids).toHaveLength(0);
      receiver.answer(200);
      server = await startServer(config, { database });
      try {
        await until(
          'the entries of before the restart',
          () => receiver.received.bodies.join('').split('"restart.before"').length - 1,
          (n) => n >= 5,
          30_000,
        );
        expect(new Set(receiver.received.ids).size).toBe(receiver.received.ids.length);
      } finally {
        await server.close();
      }
    } finally {
      await receiver.close();
      await drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server instances on one PostgreSQL', () => {
  it('send each audit entry to the webhook once between them', async () => {
    const receiver = await startReceiver();
    const { servers, stop } = await startInstances(2);
    try {
      const [a, b] = servers as [(typeof servers)[number], (typeof servers)[number]];
      const saved = await a.services.streaming.save({
        syslog: { ...off, facility: 'authpriv' },
        webhook: { enabled: true, url: receiver.url, secret: SECRET },
      });
      expect(saved.webhook.enabled).toBe(true);
      // Entries written through both instances, interleaved.
      for (let i = 0; i < 30; i += 1)
        await (i % 2 === 0 ? a : b).services.repositories.audit.append({ action: 'cluster.entry', outcome: 'success' });
      await until(
        'the 30 entries',
        () => receiver.received.bodies.join('').split('"cluster.entry"').length - 1,
        (n) => n >= 30,
        30_000,
      );
      // Both instances keep polling a while: nothing comes a second time.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(receiver.received.bodies.join('').split('"cluster.entry"').length - 1).toBe(30);
      expect(new Set(receiver.received.ids).size).toBe(receiver.received.ids.length);
    } finally {
      await stop();
      await receiver.close();
    }
  });
});

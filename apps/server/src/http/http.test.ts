import { routeList } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../test/harness.js';

type ErrorAnswer = { statusCode: number; message: string };

describe.each(DATABASES)('bad input on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  it('answers malformed JSON with 400 and says so', async () => {
    const res = await server.call<ErrorAnswer>('POST', '/api/login', { rawBody: '{"email": "a@b.c", ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await server.call<ErrorAnswer>('POST', '/api/login', {
      rawBody: JSON.stringify({ email: 'x'.repeat(1_100_000), password: 'p' }),
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/too large/);
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await server.call<ErrorAnswer>('POST', '/api/login', {
      rawBody: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });

  it('answers wrong types, arrays and hostile strings with 400, never 500', async () => {
    const bodies = [
      [1, 2],
      'text',
      null,
      { email: 5, password: true },
      { email: {}, password: [] },
      { email: 'a'.repeat(300), password: 'x' },
    ];
    for (const body of bodies) {
      const res = await server.call('POST', '/api/login', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const hostile = await server.call('POST', '/api/login', {
      body: { email: "' OR 1=1; DROP TABLE users; --", password: '<script>x</script>\u0000' },
    });
    expect(hostile.status).toBe(401);
    expect((await server.call('POST', '/api/login', { body: ADMIN })).status).toBe(200);
  });

  it('refuses prototype-poisoning keys', async () => {
    const res = await server.call('POST', '/api/login', {
      rawBody: '{"email":"a@b.c","password":"x","__proto__":{"admin":true}}',
    });
    expect(res.status).toBe(400);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await server.call<ErrorAnswer>('GET', '/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/no GET \/api\/no-such-thing/);
  });

  it('sends security headers and no caching on API answers', async () => {
    const res = await server.call('GET', '/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });
});

describe.each(DATABASES)('audit trail and OpenAPI on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  type Entries = {
    entries: { actor: string | null; action: string; outcome: string; status: number; source: string }[];
  };

  it('records every sign-in attempt and state-changing call with who, what, outcome and source', async () => {
    await server.call('POST', '/api/login', { body: { email: 'mallory@example.test', password: 'guessing' } });
    const token = await server.login();
    await server.call('POST', '/api/user/password', {
      token,
      body: { password: 'x', new_password: 'y', new_password_confirm: 'z' },
    });
    await server.call('POST', '/api/user/password', { body: {} });
    const res = await server.call<Entries>('GET', '/api/audit?limit=10', { token });
    expect(res.status).toBe(200);
    const [denied, changed, signedIn, failed] = res.body.entries;
    expect(failed).toMatchObject({
      actor: 'mallory@example.test',
      action: 'auth.login',
      outcome: 'denied',
      status: 401,
      source: '127.0.0.1',
    });
    expect(signedIn).toMatchObject({ actor: ADMIN.email, action: 'auth.login', outcome: 'success', status: 200 });
    expect(changed).toMatchObject({
      actor: ADMIN.email,
      action: 'user.password.change',
      outcome: 'failure',
      status: 400,
    });
    expect(denied).toMatchObject({ actor: null, action: 'user.password.change', outcome: 'denied', status: 401 });
  });

  it('pages the audit trail backwards and filters by action', async () => {
    const token = await server.login();
    const first = await server.call<Entries & { entries: { id: number }[] }>(
      'GET',
      '/api/audit?limit=2&action=auth.login',
      { token },
    );
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.entries.every((e) => e.action === 'auth.login')).toBe(true);
    const before = first.body.entries[1]?.id ?? 0;
    const next = await server.call<{ entries: { id: number }[] }>('GET', `/api/audit?limit=2&before=${before}`, {
      token,
    });
    expect(next.body.entries.every((e) => e.id < before)).toBe(true);
    expect((await server.call('GET', '/api/audit?limit=100000', { token })).status).toBe(400);
  });

  it('serves an OpenAPI document naming every route of the contracts', async () => {
    const res = await server.call<{ openapi: string; paths: Record<string, Record<string, { operationId: string }>> }>(
      'GET',
      '/api/openapi.json',
    );
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    for (const route of routeList) {
      expect(res.body.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.id);
    }
  });
});

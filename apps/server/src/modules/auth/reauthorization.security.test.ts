import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Authorized = { token: string; kind: string };
type Raw = { status: number; body: Record<string, unknown>; ms: number };

/**
 * Re-authorization is decided on the route that will run, never on the raw URL, and endpoint
 * patterns cannot freeze the server (issue 14, item 5). Every request here goes to the real server
 * over a raw socket, so the request target reaches it exactly as written (no URL normalising).
 */
describe.each(DATABASES)('re-authorization against an attacker on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
  });
  afterAll(async () => server.stop());

  /** Sends a request target as is (raw bytes on the socket). */
  const raw = (method: string, target: string, token: string, body?: unknown): Promise<Raw> => {
    const url = new URL(server.url);
    const payload = body === undefined ? '' : JSON.stringify(body);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: target,
          headers: {
            'authentication-token': token,
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            let parsed: Record<string, unknown> = {};
            try {
              parsed = JSON.parse(text) as Record<string, unknown>;
            } catch {
              // HEAD and empty answers carry no body.
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, ms: performance.now() - started });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  };

  /** A one-shot token (single-use limiting is on whenever a test asks for one). */
  const authorize = async () => {
    const res = await server.call<Authorized>('POST', '/api/auth/authorize', {
      token: admin,
      body: { password: ADMIN.password },
    });
    expect(res.body.kind).toBe('oneshot');
    return res.body.token;
  };
  /** Saves security settings with a token just issued (saving needs a fresh one). */
  const saveSecurity = async (body: Record<string, unknown>) =>
    server.call<{ message: string; errors?: string[] }>('POST', '/api/security', { token: await server.login(), body });
  /** Single-use limiting on, for exactly these entries. */
  const limit = async (entries: { method: string; path: string }[]) => {
    const res = await saveSecurity({
      api_limit_single_use: true,
      api_limit_freshness: false,
      api_limit_endpoints: entries,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const roleExists = async (name: string) =>
    (await server.call('GET', `/api/role/${name}`, { token: admin })).status === 200;

  let counter = 0;
  /**
   * Creates a role through `target` with the normal token: the call must be refused with a
   * re-authorization demand when the target reaches POST /api/role, or find no route at all;
   * either way no role appears.
   */
  const attemptCreate = async (target: string, mustReach: boolean) => {
    counter += 1;
    const name = `bypass-${counter}`;
    const res = await raw('POST', target, admin, { name, permissions: [] });
    if (mustReach) {
      expect(res.status, `${target} → ${res.status} ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body.reauth, target).toBe('single-use');
    } else {
      expect([401, 404], `${target} → ${res.status}`).toContain(res.status);
      if (res.status === 401) expect(res.body.reauth, target).toBe('single-use');
    }
    expect(await roleExists(name), `${target} created a role`).toBe(false);
  };

  /** With POST /api/role limited, the canonical call needs a one-shot token, and works with one. */
  const limitRoleCreation = async () => {
    await limit([{ method: 'POST', path: '^/api/role$' }]);
    const plain = await raw('POST', '/api/role', admin, { name: 'plain', permissions: [] });
    expect(plain.status).toBe(401);
    const oneShot = await authorize();
    const allowed = await raw('POST', '/api/role', oneShot, { name: `canonical-${++counter}`, permissions: [] });
    expect(allowed.status).toBe(201);
  };

  it('re-authorization cannot be skipped with a trailing slash', async () => {
    await limitRoleCreation();
    await attemptCreate('/api/role/', true);
    await attemptCreate('/api/role/?x=1', true);
  });

  it('re-authorization cannot be skipped with percent-encoding', async () => {
    await limitRoleCreation();
    for (const target of ['/api/%72ole', '/api/%72%6F%6C%65', '/api/%72%6f%6c%65', '/%61pi/role', '/api/rol%65/'])
      await attemptCreate(target, true);
    // Encoded separators and dot segments find no route at all.
    for (const target of ['/api%2Frole', '/api/role%2F', '/api/./role', '/api/x/../role', '/api/role/%2e'])
      await attemptCreate(target, false);
  });

  it('re-authorization cannot be skipped with a doubled slash', async () => {
    await limitRoleCreation();
    for (const target of ['//api/role', '/api//role', '/api/role//', '//api//role//'])
      await attemptCreate(target, false);
  });

  it('re-authorization cannot be skipped with other case', async () => {
    await limitRoleCreation();
    for (const target of ['/API/role', '/api/ROLE', '/Api/Role', '/api/Role/']) await attemptCreate(target, false);
  });

  it('re-authorization cannot be skipped with an absolute URI, a fragment, a query, parameters or HEAD', async () => {
    await limitRoleCreation();
    for (const target of [
      `${server.url}/api/role`,
      'http://other.example.test/api/role',
      '/api/role#x',
      '/api/role?/x',
    ])
      await attemptCreate(target, true);
    for (const target of ['/api/role;x', '/api/role;', '/api/role%3F', '/api/role%23'])
      await attemptCreate(target, false);
    // HEAD runs the GET handler: it is limited as the GET route is.
    await limit([{ method: 'GET', path: '^/api/apikey$' }]);
    expect((await raw('GET', '/api/apikey', admin)).status).toBe(401);
    expect((await raw('HEAD', '/api/apikey', admin)).status).toBe(401);
    expect((await raw('HEAD', '/api/apikey/', admin)).status).toBe(401);
  });

  it('a stored pattern that selects a route limits every encoding of it', async () => {
    // The pattern as the console's route picker writes it: the path template, escaped.
    await limit([{ method: 'PUT', path: '^/api/role/\\{name\\}/permissions$' }]);
    expect((await raw('POST', '/api/role', admin, { name: 'target', permissions: [] })).status).toBe(201);
    const targets = [
      '/api/role/target/permissions',
      '/api/role/target/permissions/',
      '/api/role/%74arget/permissions',
      '/api/rol%65/target/permissions',
      '/api/role/target/permission%73?x',
      `${server.url}/api/role/target/permissions`,
    ];
    for (const target of targets) {
      const res = await raw('PUT', target, admin, { permissions: 'list-host' });
      expect(res.status, `${target} → ${res.status} ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body.reauth, target).toBe('single-use');
    }
    const role = await server.call<{ role: { permissions: string[] } }>('GET', '/api/role/target', { token: admin });
    expect(role.body.role.permissions).toEqual([]);
    // The same call with a one-shot token goes through: the pattern limits, it does not forbid.
    const ok = await raw('PUT', '/api/role/%74arget/permissions/', await authorize(), { permissions: 'list-host' });
    expect(ok.status).toBe(200);
    // Other routes under the same prefix are not selected.
    expect((await raw('GET', '/api/role/target', admin)).status).toBe(200);
  });

  it('a pattern that selects no route of the catalogue is refused, naming the catalogue', async () => {
    const res = await saveSecurity({ api_limit_endpoints: [{ method: 'POST', path: '^/api/role/admin$' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/POST \^\/api\/role\/admin\$ selects no route.*\/api\/openapi\.json/);
    // The method counts: no PUT on /api/role.
    expect((await saveSecurity({ api_limit_endpoints: [{ method: 'PUT', path: '^/api/role$' }] })).status).toBe(400);
  });

  it('a catastrophic endpoint pattern is refused and cannot freeze the server', async () => {
    // Nested repetition: refused before it is ever run.
    const nested = saveSecurity({ api_limit_endpoints: [{ method: 'GET', path: '^/api/user/(a+)+$' }] });
    const during = await raw('GET', '/api/health', admin);
    const refused = await nested;
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/\^\/api\/user\/\(a\+\)\+\$ could take exponential time/);
    expect(during.ms).toBeLessThan(1500);
    // Overlapping alternatives pass the static check but overrun their time over the catalogue: the
    // check runs on another thread and is stopped, so the server keeps answering meanwhile.
    const overlapping = saveSecurity({ api_limit_endpoints: [{ method: '*', path: '^(.|.)*z$' }] });
    const probes: Raw[] = [];
    for (let i = 0; i < 5; i += 1) {
      probes.push(await raw('GET', '/api/health', admin));
      await new Promise((r) => setTimeout(r, 40));
    }
    const slow = await overlapping;
    expect(slow.status).toBe(400);
    expect(slow.body.message).toMatch(/\^\(\.\|\.\)\*z\$ takes too long to match the route catalogue/);
    for (const probe of probes) expect(probe.ms).toBeLessThan(1500);
    // Every refusal is listed, the valid entries saved nothing meanwhile.
    const both = await saveSecurity({
      api_limit_endpoints: [
        { method: 'GET', path: '^/api/user/(a+)+$' },
        { method: 'GET', path: '(x+x+)+y' },
      ],
    });
    expect(both.status).toBe(400);
    expect(both.body.errors).toHaveLength(2);
  });

  it('a catastrophic pattern stored before this check is never run on a request', async () => {
    // As an older version stored it; the long path below took it seconds to reject per request.
    await server.services.repositories.settings.put('security', {
      api_limit_single_use: false,
      api_limit_freshness: true,
      api_limit_endpoints: [{ method: 'GET', path: '^/api/user/(a+)+$' }],
      effectiveTokenMaxAge: 86_400,
    });
    await new Promise((r) => setTimeout(r, 2100));
    const fresh = await server.login();
    const attack = `/api/user/${'a'.repeat(34)}!`;
    const answers = await Promise.all([raw('GET', attack, fresh), raw('GET', '/api/health', fresh)]);
    for (const answer of answers) expect(answer.ms).toBeLessThan(1500);
    expect(answers[0].status).toBeLessThan(500);
    // A stored pattern that overruns its time limits every route of its method (fail closed), and
    // still costs a request nothing.
    await server.services.repositories.settings.put('security', {
      api_limit_single_use: true,
      api_limit_freshness: false,
      api_limit_endpoints: [{ method: 'DELETE', path: '^(.|.)*z$' }],
      effectiveTokenMaxAge: 86_400,
    });
    await new Promise((r) => setTimeout(r, 2100));
    const del = await raw('DELETE', '/api/role/nobody', fresh);
    expect(del.status).toBe(401);
    expect(del.body.reauth).toBe('single-use');
    expect((await raw('GET', '/api/role', fresh)).status).toBe(200);
    await saveSecurity({ api_limit_single_use: false, api_limit_freshness: false, api_limit_endpoints: [] });
  });
});

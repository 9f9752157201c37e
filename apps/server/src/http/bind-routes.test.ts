import {
  FRESH_TOKEN_SECONDS,
  PERMISSIONS,
  type RouteContract,
  TOKEN_HEADER,
  TOKEN_HEADER_ALT,
} from '@gatehouse/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthService } from '../modules/auth/auth.service.js';
import { type Principal, toPrincipal } from '../modules/auth/principal.js';
import { type Gatekeeper, type HandlerContext, type Handlers, bindRoutes } from './bind-routes.js';
import { installErrorHandler } from './errors.js';

/**
 * The request binder as a client meets it: the real binder and Fastify with the server's router
 * options, over real HTTP on loopback; the gatekeeper's answers (who a token is, what the security
 * settings limit) are set by each test, and every handler echoes what the binder handed it.
 */

const RECORDING = '3f0c1a52-7a51-4b7e-9d43-1d0b8b5b2a10';
const AGENT = { id: '6c1f0e3a-5b8d-4d5e-8a3e-2f1b9c7d4e21', hostname: 'db-1' };

interface GateState {
  limit: 'single-use' | 'freshness' | undefined;
  oneShotLeft: boolean;
  asked: string[];
  consumed: string[];
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

function principal(email: string, permissions: readonly string[], kind = 'session', issuedAt = new Date()): Principal {
  const roles = email.startsWith('admin') ? [{ name: 'admin', permissions: [...PERMISSIONS] }] : [];
  return toPrincipal(
    { id: `id-${email}`, email, name: null },
    [...roles, { name: `role-of-${email}`, permissions: [...permissions] }],
    `hash-${email}`,
    new Date(Date.now() + 3_600_000),
    { kind, issuedAt },
  );
}

const PRINCIPALS: Record<string, Principal> = {
  admin: principal('admin@x.test', []),
  'admin-stale': principal('admin-stale@x.test', [], 'session', minutesAgo(10)),
  reader: principal('reader@x.test', ['list-recording']),
  'reader-stale': principal('reader-stale@x.test', ['list-recording'], 'session', minutesAgo(10)),
  settings: principal('settings@x.test', ['manage-settings']),
  'settings-stale': principal('settings-stale@x.test', ['manage-settings'], 'session', minutesAgo(10)),
  'settings-oneshot': principal('settings-oneshot@x.test', ['manage-settings'], 'oneshot', minutesAgo(10)),
  'settings-edge': principal(
    'settings-edge@x.test',
    ['manage-settings'],
    'session',
    new Date(Date.now() - FRESH_TOKEN_SECONDS * 1000 + 20_000),
  ),
  nobody: principal('nobody@x.test', []),
};

describe('the request binder', () => {
  let app: FastifyInstance;
  let base: string;
  const state: GateState = { limit: undefined, oneShotLeft: true, asked: [], consumed: [] };
  /** The server's warnings and errors, one JSON line each. */
  const logs: string[] = [];
  /** What the last handler received. */
  let seen:
    (Omit<HandlerContext<RouteContract>, 'request' | 'reply' | 'principal'> & Record<string, unknown>) | undefined;

  beforeAll(async () => {
    app = Fastify({
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
      logger: { level: 'warn', stream: { write: (line: string) => void logs.push(line) } },
    });
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    installErrorHandler(app);
    const auth = {
      authenticate: (token: string) => Promise.resolve(PRINCIPALS[token]),
      authenticateHash: (hash: string) => Promise.resolve(Object.values(PRINCIPALS).find((p) => p.tokenHash === hash)),
    } as unknown as AuthService;
    const gate: Gatekeeper = {
      auth,
      limitFor: (route) => {
        state.asked.push(route.id);
        // Re-authorizing is never limited by the binder, whatever the settings say.
        return Promise.resolve(state.limit);
      },
      consumeOneShot: (hash) => {
        state.consumed.push(hash);
        const left = state.oneShotLeft;
        state.oneShotLeft = false;
        return Promise.resolve(left);
      },
      agent: (request) => Promise.resolve(request.headers['x-test-agent'] === 'enrolled' ? { ...AGENT } : undefined),
      ticket: (ticket, objectId) =>
        ticket === 'good-ticket' && objectId === RECORDING ? PRINCIPALS.reader?.tokenHash : undefined,
    };
    const handlers = new Proxy(
      {},
      {
        get: (_target, name: string) => async (ctx: HandlerContext<RouteContract>) => {
          const { request, reply, principal: who, ...rest } = ctx;
          seen = {
            ...rest,
            name,
            principal: who?.email,
            agent: request.agent?.id,
            routeId: request.routeOptions.config.routeId,
            auditable: request.routeOptions.config.auditable,
            bodyIsBuffer: Buffer.isBuffer(rest.body),
          };
          if (name === 'getRecordingCast') {
            // A handler that answers itself, as files with ranges do.
            reply.status(206).header('content-type', 'text/plain').send('cast bytes');
            return reply;
          }
          if (name === 'getRecordingVideo') {
            await reply.status(206).header('content-type', 'text/plain').send('video bytes');
            return { ignored: true };
          }
          return { ok: name };
        },
      },
    ) as Handlers;
    bindRoutes(app, handlers, gate);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => app.close());
  beforeEach(() => {
    state.limit = undefined;
    state.oneShotLeft = true;
    state.asked = [];
    state.consumed = [];
    seen = undefined;
    logs.length = 0;
  });

  const call = async (
    method: string,
    path: string,
    options: { token?: string; header?: string; body?: unknown; raw?: Buffer; headers?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers[options.header ?? TOKEN_HEADER] = options.token;
    let body: string | Buffer | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.raw) {
      headers['content-type'] = 'application/octet-stream';
      body = options.raw;
    }
    const res = await fetch(`${base}${path}`, { method, headers, body });
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { text };
    }
    return { status: res.status, body: json };
  };

  describe('who is calling', () => {
    it('reads the token from Authentication-Token or x-auth-token, and an empty one is no token', async () => {
      expect((await call('GET', '/api/apikey', { token: 'admin' })).status).toBe(200);
      expect(seen).toMatchObject({ principal: 'admin@x.test', token: 'admin' });
      expect((await call('GET', '/api/apikey', { token: 'admin', header: TOKEN_HEADER_ALT })).status).toBe(200);
      expect(seen).toMatchObject({ principal: 'admin@x.test', token: 'admin' });
      const empty = await call('GET', '/api/apikey', { token: '' });
      expect(empty).toMatchObject({
        status: 401,
        body: { message: 'Sign in first: this call needs an Authentication-Token header.' },
      });
    });

    it('an empty token header is no token: a public route hands its handler neither token nor caller', async () => {
      expect(await call('GET', '/api/health', { token: '' })).toMatchObject({ status: 200, body: { ok: 'health' } });
      expect(seen).toMatchObject({ name: 'health', principal: undefined });
      expect(seen?.token).toBeUndefined();
      expect((await call('GET', '/api/health', { token: '', header: TOKEN_HEADER_ALT })).status).toBe(200);
      expect(seen?.token).toBeUndefined();
    });

    it('a public route runs without a token, and knows the caller when one is sent', async () => {
      expect((await call('GET', '/api/health')).status).toBe(200);
      expect(seen).toMatchObject({ name: 'health', principal: undefined, token: undefined });
      expect((await call('GET', '/api/health', { token: 'reader' })).status).toBe(200);
      expect(seen).toMatchObject({ principal: 'reader@x.test', token: 'reader' });
      // A public route never asks about re-authorization.
      expect(state.asked).toEqual([]);
    });

    it('an unknown token is refused with a sign-in message, before any handler runs', async () => {
      const res = await call('GET', '/api/apikey', { token: 'forged' });
      expect(res).toMatchObject({
        status: 401,
        body: {
          message:
            'Your session has ended: it expired or was signed out, or your account was changed or deleted. Sign in again.',
        },
      });
      expect(seen).toBeUndefined();
    });

    it('agent routes admit only an enrolled agent, and hand the handler that agent', async () => {
      const put = `/api/recording/${RECORDING}/video?offset=0`;
      const refused = await call('PUT', put, { raw: Buffer.from('frame'), token: 'admin' });
      expect(refused).toMatchObject({
        status: 401,
        body: { message: 'Only an enrolled agent may call this: send its identity headers.' },
      });
      expect(seen).toBeUndefined();
      const ok = await call('PUT', put, { raw: Buffer.from('frame'), headers: { 'x-test-agent': 'enrolled' } });
      expect(ok.status).toBe(200);
      // Raw routes take their body as bytes, untouched.
      expect(seen).toMatchObject({ agent: AGENT.id, principal: undefined, bodyIsBuffer: true });
      expect(seen?.query).toEqual({ offset: 0 });
      expect(state.asked).toEqual([]);
    });
  });

  describe('access declared by the route', () => {
    it('admin-role routes refuse everyone else, whatever they hold', async () => {
      const res = await call('GET', '/api/apikey', { token: 'settings' });
      expect(res).toMatchObject({ status: 403, body: { message: 'Only holders of the admin role may do this.' } });
      expect(seen).toBeUndefined();
    });

    it('permission routes need one of the listed permissions, and say which', async () => {
      const res = await call('GET', `/api/recording/${RECORDING}/data`, { token: 'nobody' });
      expect(res).toMatchObject({
        status: 403,
        body: { message: 'You need one of these permissions for this: list-recording.' },
      });
      expect(seen).toBeUndefined();
      expect((await call('GET', `/api/recording/${RECORDING}/data`, { token: 'reader' })).status).toBe(200);
      expect(seen).toMatchObject({ principal: 'reader@x.test', params: { id: RECORDING } });
    });

    it('a route listing several permissions admits a holder of any one, and names them all when refusing', async () => {
      const refused = await call('GET', '/api/agent/dashboard', { token: 'nobody' });
      expect(refused).toMatchObject({
        status: 403,
        body: { message: 'You need one of these permissions for this: list-host, list-recording.' },
      });
      expect(seen).toBeUndefined();
      // The reader holds list-recording but not list-host.
      expect(await call('GET', '/api/agent/dashboard', { token: 'reader' })).toMatchObject({
        status: 200,
        body: { ok: 'getDashboard' },
      });
      expect(seen).toMatchObject({ name: 'getDashboard', principal: 'reader@x.test' });
    });

    it('a ticket route still needs the permission from a token holder', async () => {
      const res = await call('GET', `/api/recording/${RECORDING}/cast?ticket=good-ticket`, { token: 'nobody' });
      expect(res).toMatchObject({
        status: 403,
        body: { message: 'You need one of these permissions for this: list-recording.' },
      });
      expect(seen).toBeUndefined();
    });

    it('a permission route without ticket access never reads ?ticket=, not even to refuse it', async () => {
      for (const ticket of ['bad', 'good-ticket']) {
        const res = await call('GET', `/api/recording/${RECORDING}/data?ticket=${ticket}`);
        expect(res).toMatchObject({
          status: 401,
          body: { message: 'Sign in first: this call needs an Authentication-Token header.' },
        });
      }
      expect(seen).toBeUndefined();
    });

    it('a signed-in route needs a token, and no ticket stands in for one', async () => {
      const res = await call('GET', `/api/recording/${RECORDING}/data?ticket=good-ticket`);
      expect(res).toMatchObject({
        status: 401,
        body: { message: 'Sign in first: this call needs an Authentication-Token header.' },
      });
    });

    it('a media ticket stands in for the token only on ticket routes and only for its object', async () => {
      const cast = (id: string, ticket?: string) =>
        call('GET', `/api/recording/${id}/cast${ticket === undefined ? '' : `?ticket=${ticket}`}`);
      const ok = await cast(RECORDING, 'good-ticket');
      expect(ok).toMatchObject({ status: 206, body: { text: 'cast bytes' } });
      expect(seen).toMatchObject({ principal: 'reader@x.test', token: undefined });
      seen = undefined;
      const other = await cast('0d4b8f8e-3c2a-4f5e-9b1d-7a6c5e4d3b2a', 'good-ticket');
      expect(other).toMatchObject({
        status: 401,
        body: { message: 'This link has expired or is not valid. Open the recording again.' },
      });
      expect(await cast(RECORDING, 'bad')).toMatchObject({ status: 401 });
      expect(await cast(RECORDING)).toMatchObject({
        status: 401,
        body: { message: 'Sign in first: send an Authentication-Token header or a ticket.' },
      });
      expect(seen).toBeUndefined();
      // The token header wins over a ticket.
      const withToken = await call('GET', `/api/recording/${RECORDING}/cast?ticket=bad`, { token: 'admin' });
      expect(withToken).toMatchObject({ status: 206 });
      expect(seen).toMatchObject({ principal: 'admin@x.test' });
    });
  });

  describe('re-authorization', () => {
    it('asks the settings about the route that will run, whatever URL reached it', async () => {
      state.limit = 'single-use';
      for (const path of ['/api/role', '/api/role/', '/api/%72ole', `${'/api/rol%65'}?x=/api/other`]) {
        const res = await call('POST', path, { token: 'admin', body: { name: 'r', permissions: [] } });
        expect(res).toMatchObject({ status: 401, body: { reauth: 'single-use' } });
      }
      expect(state.asked).toEqual(['role.create', 'role.create', 'role.create', 'role.create']);
      expect(seen).toBeUndefined();
    });

    it('a listed call with single-use on needs a one-shot token, which works once', async () => {
      state.limit = 'single-use';
      const refused = await call('GET', '/api/apikey', { token: 'admin' });
      expect(refused).toMatchObject({
        status: 401,
        body: { reauth: 'single-use', message: 'Authorization needed: confirm it is you, then try again.' },
      });
      expect(state.consumed).toEqual([]);
      expect((await call('GET', '/api/security', { token: 'settings-oneshot' })).status).toBe(200);
      expect(state.consumed).toEqual(['hash-settings-oneshot@x.test']);
      const replay = await call('GET', '/api/security', { token: 'settings-oneshot' });
      expect(replay).toMatchObject({
        status: 401,
        body: { message: 'This authorization was used already: authorize again.' },
      });
      expect(replay.body.reauth).toBeUndefined();
    });

    it('a one-shot token is used up even on calls nothing limits', async () => {
      expect((await call('GET', '/api/security', { token: 'settings-oneshot' })).status).toBe(200);
      expect((await call('GET', '/api/security', { token: 'settings-oneshot' })).status).toBe(401);
      expect(state.consumed).toHaveLength(2);
    });

    it('a listed call with freshness on needs a token issued in the last minutes', async () => {
      state.limit = 'freshness';
      const stale = await call('GET', '/api/apikey', { token: 'admin-stale' });
      expect(stale).toMatchObject({ status: 401, body: { reauth: 'freshness' } });
      expect((await call('GET', '/api/apikey', { token: 'admin' })).status).toBe(200);
      // A token issued just inside the window is still fresh.
      expect((await call('GET', '/api/security', { token: 'settings-edge' })).status).toBe(200);
      expect((await call('GET', '/api/security', { token: 'settings-oneshot' })).status).toBe(200);
      // Not listed: a stale token is fine.
      state.limit = undefined;
      expect((await call('GET', '/api/apikey', { token: 'admin-stale' })).status).toBe(200);
    });

    it('a token is fresh for less than FRESH_TOKEN_SECONDS: at exactly that age it is stale', async () => {
      state.limit = 'freshness';
      const issued = PRINCIPALS.settings?.issuedAt.getTime() ?? 0;
      // Only Date is frozen (no timer is faked), so the clock reads the same all through a call.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(issued + FRESH_TOKEN_SECONDS * 1000 - 1);
        expect((await call('GET', '/api/security', { token: 'settings' })).status).toBe(200);
        vi.setSystemTime(issued + FRESH_TOKEN_SECONDS * 1000);
        expect(await call('GET', '/api/security', { token: 'settings' })).toMatchObject({
          status: 401,
          body: { reauth: 'freshness' },
        });
      } finally {
        vi.useRealTimers();
      }
    });

    it('routes marked fresh need a fresh or one-shot token even when nothing is listed', async () => {
      const body = { effectiveTokenMaxAge: 3600 };
      const stale = await call('POST', '/api/security', { token: 'settings-stale', body });
      expect(stale).toMatchObject({ status: 401, body: { reauth: 'freshness' } });
      expect((await call('POST', '/api/security', { token: 'settings', body })).status).toBe(200);
      expect((await call('POST', '/api/security', { token: 'settings-oneshot', body })).status).toBe(200);
      // Single-use listing of a fresh route still answers single-use.
      state.limit = 'single-use';
      expect(await call('POST', '/api/security', { token: 'settings', body })).toMatchObject({
        status: 401,
        body: { reauth: 'single-use' },
      });
    });

    it('re-authorizing itself is never limited, or a broad pattern would lock everyone out', async () => {
      state.limit = 'single-use';
      const res = await call('POST', '/api/auth/authorize', { token: 'reader-stale', body: { password: 'x' } });
      expect(res.status).toBe(200);
      expect(seen).toMatchObject({ name: 'authorize', principal: 'reader-stale@x.test' });
      expect(state.asked).toEqual([]);
    });

    it('the passkey challenge that re-authorizing needs is never limited, or a broad pattern would lock passkey users out', async () => {
      for (const limit of ['single-use', 'freshness'] as const) {
        state.limit = limit;
        const res = await call('POST', '/api/auth/second-factor/options', { token: 'reader-stale' });
        expect(res.status, limit).toBe(200);
        expect(seen).toMatchObject({ name: 'secondFactorPasskeyOptions', principal: 'reader-stale@x.test' });
      }
      expect(state.asked).toEqual([]);
      // The exemption is that route's alone: registering a passkey, listed, still needs a re-authorization.
      const register = await call('POST', '/api/user/passkeys/options', { token: 'reader-stale' });
      expect(register).toMatchObject({ status: 401, body: { reauth: 'freshness' } });
    });
  });

  describe('validation and the answer', () => {
    it('refuses bad path, query and body parts with a 400 naming the problem, before the handler', async () => {
      const path = await call('GET', '/api/recording/not-a-uuid/data', { token: 'reader' });
      expect(path).toMatchObject({ status: 400, body: { message: 'Not a session id' } });
      const query = await call('GET', `/api/recording/${RECORDING}/cast?download=perhaps`, { token: 'reader' });
      expect(query).toMatchObject({ status: 400, body: { message: 'must be true or false' } });
      const offset = await call('PUT', `/api/recording/${RECORDING}/video?offset=-1`, {
        raw: Buffer.from('frame'),
        headers: { 'x-test-agent': 'enrolled' },
      });
      expect(offset.status).toBe(400);
      expect(String(offset.body.message)).toMatch(/^Query field 'offset': /);
      const body = await call('POST', '/api/security', { token: 'settings', body: { effectiveTokenMaxAge: 'soon' } });
      expect(body).toMatchObject({
        status: 400,
        body: { message: 'effectiveTokenMaxAge must be seconds', errors: ['effectiveTokenMaxAge must be seconds'] },
      });
      expect(seen).toBeUndefined();
    });

    it("names the part a built-in check refused: 'Path', 'Query' or 'Body', with the field when there is one", async () => {
      const long = 'p'.repeat(65);
      const path = await call('GET', `/api/pods/${long}/logs`, { token: 'admin' });
      expect(path.status).toBe(400);
      expect(String(path.body.message)).toMatch(/^Path field 'name': Too big/);
      const query = await call('GET', '/api/pods/api/logs?limit=0', { token: 'admin' });
      expect(query.status).toBe(400);
      expect(String(query.body.message)).toMatch(/^Query field 'limit': Too small/);
      const body = await call('POST', '/api/role', { token: 'admin', body: { name: 'r', extra: 1 } });
      expect(body).toMatchObject({ status: 400, body: { message: 'Body: Unrecognized key: "extra"' } });
      expect(seen).toBeUndefined();
    });

    it('hands the handler the parsed parts, and a missing body as an empty one', async () => {
      expect((await call('POST', '/api/security', { token: 'settings' })).status).toBe(200);
      expect(seen).toMatchObject({ name: 'saveSecurity', body: {} });
      expect((await call('GET', `/api/recording/${RECORDING}/cast?download=true`, { token: 'reader' })).status).toBe(
        206,
      );
      expect(seen?.query).toMatchObject({ download: true });
    });

    it("answers with the route's status, or 200, and leaves a handler's own reply alone", async () => {
      const created = await call('POST', '/api/role', { token: 'admin', body: { name: 'r', permissions: [] } });
      expect(created).toMatchObject({ status: 201, body: { ok: 'createRole' } });
      expect(await call('GET', '/api/apikey', { token: 'admin' })).toMatchObject({
        status: 200,
        body: { ok: 'listApiKeys' },
      });
      expect(await call('GET', `/api/recording/${RECORDING}/video`, { token: 'reader' })).toMatchObject({
        status: 206,
        body: { text: 'video bytes' },
      });
    });

    it('a handler that sent its own reply is not answered a second time', async () => {
      // getRecordingCast sends and returns the reply; getRecordingVideo awaits its send and returns a value.
      expect(await call('GET', `/api/recording/${RECORDING}/cast`, { token: 'reader' })).toMatchObject({
        status: 206,
        body: { text: 'cast bytes' },
      });
      expect(await call('GET', `/api/recording/${RECORDING}/video`, { token: 'reader' })).toMatchObject({
        status: 206,
        body: { text: 'video bytes' },
      });
      // One more round trip, so that whatever the binder did after those answers has happened.
      expect((await call('GET', '/api/health')).status).toBe(200);
      // Fastify refuses a second answer with a warning only the server log shows.
      expect(logs.filter((line) => line.includes('FST_ERR_REP_ALREADY_SENT'))).toEqual([]);
    });

    it('marks state-changing calls for the audit, and names the route', async () => {
      await call('GET', '/api/apikey', { token: 'admin' });
      expect(seen).toMatchObject({ routeId: 'apikey.list', auditable: false });
      await call('POST', '/api/role', { token: 'admin', body: { name: 'r', permissions: [] } });
      expect(seen).toMatchObject({ routeId: 'role.create', auditable: true });
      await call('GET', '/api/role/some-role', { token: 'admin' });
      expect(seen).toMatchObject({ routeId: 'role.get', params: { name: 'some-role' } });
    });
  });
});

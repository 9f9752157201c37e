import { PERMISSIONS, type RouteContract, routeList } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';

/** A concrete path for a route: every {param} gets a sample value. */
function samplePath(route: RouteContract): string {
  return route.path.replace(/\{(\w+)\}/g, 'sample');
}

function allowed(route: RouteContract, holder: 'none' | 'admin' | { permission: string }): boolean {
  const { access } = route;
  if (access.kind === 'public' || access.kind === 'signed-in') return true;
  if (holder === 'admin') return true;
  if (holder === 'none') return false;
  return access.kind === 'permissions' && (access.anyOf as readonly string[]).includes(holder.permission);
}

// The matrix is generated from the route table, so a new route is covered the day it is declared.
describe.each(DATABASES)('authorization matrix on %s', (kind) => {
  let server: TestServer;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    server = await startTestServer(kind);
    tokens.set('admin', await server.login());
    await server.createUser('plain@example.test', 'plain-password');
    tokens.set('none', await server.login('plain@example.test', 'plain-password'));
    for (const permission of PERMISSIONS) {
      const email = `holder-of-${permission}@example.test`;
      await server.createUser(email, 'holder-password', { permissions: [permission] });
      tokens.set(permission, await server.login(email, 'holder-password'));
    }
  }, 120_000);
  afterAll(async () => server.stop());

  // Logout revokes the caller's token, so it runs with throwaway tokens below.
  const guarded = routeList.filter((r) => r.id !== 'auth.logout');

  it.each(routeList.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: 401 without a token or with a forged one',
    async (_, route) => {
      const none = await server.call(route.method, samplePath(route), { body: route.body ? {} : undefined });
      const forged = await server.call(route.method, samplePath(route), {
        token: 'f'.repeat(43),
        body: route.body ? {} : undefined,
      });
      // A public route that declares its own 401 (a finished sign-on missing) answers it for its own reasons.
      if (route.access.kind === 'public' && route.errors?.[401]) {
        expect(none.status).not.toBe(403);
      } else if (route.access.kind === 'public') {
        expect(none.status).not.toBe(401);
        expect(forged.status).not.toBe(401);
      } else {
        expect(none.status).toBe(401);
        expect(forged.status).toBe(401);
      }
    },
  );

  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: each holder gets exactly what the route allows',
    async (_, route) => {
      const holders: ('none' | 'admin' | { permission: string })[] = [
        'none',
        'admin',
        ...PERMISSIONS.map((permission) => ({ permission })),
      ];
      for (const holder of holders) {
        const key = typeof holder === 'string' ? holder : holder.permission;
        const res = await server.call(route.method, samplePath(route), {
          token: tokens.get(key),
          body: route.body ? {} : undefined,
        });
        const label = `${route.id} as ${key}`;
        // Agent routes take no user token at all, not even an administrator's.
        if (route.access.kind === 'agent') expect(res.status, label).toBe(401);
        else if (route.access.kind === 'public' && route.errors?.[401]) expect(res.status, label).not.toBe(403);
        // A route that declares a 403 of its own (the admin role for the sign-in configuration) may
        // answer it to a holder of its permission: that is the route's rule, not the binder's.
        else if (allowed(route, holder) && route.errors?.[403] && holder !== 'admin')
          expect(res.status, label).not.toBe(401);
        else if (allowed(route, holder)) expect([401, 403], label).not.toContain(res.status);
        else expect(res.status, label).toBe(403);
      }
    },
  );

  it('serves no API route that the contracts do not declare', () => {
    const declared = new Set(routeList.map((r) => `${r.method} ${r.path.replace(/\{(\w+)\}/g, ':$1')}`));
    const api = server.app.servedRoutes.filter((r) => / \/(api|sso|ldap|saml)(\/|$)/.test(r) && !r.startsWith('HEAD '));
    expect(api.length).toBeGreaterThanOrEqual(routeList.length);
    expect(api.filter((r) => !declared.has(r))).toEqual([]);
  });

  it('takes a change of roles into account on the very next request', async () => {
    const token = tokens.get('none');
    expect((await server.call('GET', '/api/audit', { token })).status).toBe(403);
    const user = await server.services.repositories.users.findByEmail('plain@example.test');
    await server.services.repositories.users.addRole(user?.id ?? '', 'admin');
    expect((await server.call('GET', '/api/audit', { token })).status).toBe(200);
    await server.services.repositories.users.removeRole(user?.id ?? '', 'admin');
    expect((await server.call('GET', '/api/audit', { token })).status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { DEMO_PASSWORD, seedDemo } from './demo-data.js';

describe.each(DATABASES)('demo data on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  it('creates users who sign in with the demo password and hold their roles’ permissions', async () => {
    await seedDemo(server.services);
    const res = await server.call<{ response: { user: { effectivePermissions: string[] } } }>('POST', '/api/login', {
      body: { email: 'farid.nasser@demo.gatehouse.test', password: DEMO_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.response.user.effectivePermissions).toEqual(['list-host']);
  });

  it('fills every screen that exists: nested groups, enrolled hosts, keys and tunnel definitions', async () => {
    const admin = await server.login();
    const counts = await server.call<Record<string, number>>('GET', '/api/navigation/counts', { token: admin });
    expect(counts.body).toMatchObject({
      totalGroups: 4,
      totalHosts: 5,
      connectedHosts: 0,
      totalTunnels: 4,
      totalRegistrationKeys: 2,
    });
    const groups = await server.call<{ groups: { name: string; groups: string[] }[] }>('GET', '/api/group', {
      token: admin,
    });
    expect(groups.body.groups.find((g) => g.name === 'Platform')?.groups).toEqual(['Database admins', 'On-call']);
    const chen = await server.login('chen.wei@demo.gatehouse.test', DEMO_PASSWORD);
    const reach = await server.call<{ groups: string[] }>('GET', '/api/user/chen.wei@demo.gatehouse.test/reach', {
      token: chen,
    });
    expect(reach.body.groups).toEqual(['Database admins', 'On-call', 'Platform']);
  });

  it('can run again without duplicating anything', async () => {
    const before = await server.services.repositories.users.count();
    const tunnelsBefore = await server.services.repositories.tunnels.count();
    const lines = await seedDemo(server.services);
    expect(await server.services.repositories.users.count()).toBe(before);
    expect(await server.services.repositories.tunnels.count()).toBe(tunnelsBefore);
    expect((await server.services.repositories.agents.counts()).total).toBe(5);
    expect(lines).toContain('Demo users were already there.');
  });
});

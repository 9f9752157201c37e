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

  it('can run again without duplicating anything', async () => {
    const before = await server.services.repositories.users.count();
    const lines = await seedDemo(server.services);
    expect(await server.services.repositories.users.count()).toBe(before);
    expect(lines).toContain('Demo users were already there.');
  });
});

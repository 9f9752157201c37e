import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type ErrorAnswer = { message: string; errors?: string[] };

describe.each(DATABASES)('agent list and host config on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k', uses: 5 } })
    ).body.key;
    // Registration through the API, as an agent does it (the process tests cover the CLI).
    for (const [hostname, os] of [
      ['win-01', 2],
      ['Beta', 1],
      ['alpha', 3],
    ] as const) {
      const res = await server.call<{ id: string }>('POST', '/api/agent/register', {
        body: { key, hostname, os, version: '2.0.0' },
      });
      expect(res.status).toBe(201);
      ids[hostname] = res.body.id;
    }
  });
  afterAll(async () => server.stop());

  it('lists agents by hostname with the spec’s default config, [3389] whitelisted on Windows only', async () => {
    const res = await server.call<{
      agents: { hostname: string; connected: boolean; config: Record<string, unknown> }[];
    }>('GET', '/api/agent', { token: admin });
    expect(res.body.agents.map((a) => a.hostname)).toEqual(['alpha', 'beta', 'win-01']);
    expect(res.body.agents.every((a) => !a.connected)).toBe(true);
    expect(res.body.agents[2]?.config).toEqual({
      loglevel: 'ERROR',
      recording_enabled: false,
      recording_fps: 5,
      recording_scale: 1,
      recording_bitrate: '2000k',
      whitelist: [3389],
    });
    expect(res.body.agents[0]?.config.whitelist).toEqual([]);
  });

  it('saves a partial config and answers it whole', async () => {
    const res = await server.call<Record<string, unknown>>('POST', `/api/agent/${ids.alpha}/config`, {
      token: admin,
      body: {
        recording_enabled: true,
        recording_fps: 30,
        recording_scale: 0.5,
        recording_bitrate: '4000k',
        whitelist: [5900, 22, 22],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      recording_fps: 30,
      recording_scale: 0.5,
      whitelist: [22, 5900],
      applied: false,
      message: 'Configuration saved.',
    });
    const again = await server.call<Record<string, unknown>>('GET', `/api/agent/${ids.alpha}/config`, { token: admin });
    expect(again.body.loglevel).toBe('ERROR');
    expect(again.body.recording_bitrate).toBe('4000k');
  });

  it('answers a bad value with a 400 that names the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ recording_fps: 0 }, /recording_fps/],
      [{ recording_fps: 31 }, /recording_fps/],
      [{ recording_scale: 0 }, /recording_scale/],
      [{ recording_scale: 1.5 }, /recording_scale/],
      [{ recording_bitrate: '2' }, /recording_bitrate/],
      [{ recording_bitrate: '90000k' }, /recording_bitrate/],
      [{ whitelist: [0] }, /whitelist/],
      [{ whitelist: [70000] }, /whitelist/],
      [{ whitelist: 'abc' }, /whitelist/],
      [{ loglevel: 'LOUD' }, /loglevel/],
      [{ colour: 'red' }, /colour/],
    ];
    for (const [body, field] of cases) {
      const res = await server.call<ErrorAnswer>('POST', `/api/agent/${ids.alpha}/config`, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toMatch(field);
    }
  });

  it('needs modify-agent-config to save and list-host to read', async () => {
    await server.createUser('viewer@example.test', 'viewer-password', { permissions: ['list-host'] });
    const viewer = await server.login('viewer@example.test', 'viewer-password');
    expect((await server.call('GET', `/api/agent/${ids.alpha}/config`, { token: viewer })).status).toBe(200);
    expect(
      (await server.call('POST', `/api/agent/${ids.alpha}/config`, { token: viewer, body: { recording_fps: 2 } }))
        .status,
    ).toBe(403);
    expect((await server.call('DELETE', `/api/agent/${ids.alpha}`, { token: viewer })).status).toBe(403);
  });

  it('refuses registration with a wrong key, and unknown agent ids with 404', async () => {
    const res = await server.call<ErrorAnswer>('POST', '/api/agent/register', {
      body: { key: 'nope', hostname: 'x', os: 1, version: '1' },
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/registration key is not valid/);
    expect(
      (await server.call('GET', '/api/agent/00000000-0000-4000-8000-000000000000/config', { token: admin })).status,
    ).toBe(404);
    expect((await server.call('GET', '/api/agent/not-an-id/config', { token: admin })).status).toBe(400);
  });

  it('counts hosts in the navigation for list-host holders', async () => {
    const counts = await server.call<{ totalHosts: number; connectedHosts: number }>('GET', '/api/navigation/counts', {
      token: admin,
    });
    expect(counts.body).toMatchObject({ totalHosts: 3, connectedHosts: 0 });
  });
});

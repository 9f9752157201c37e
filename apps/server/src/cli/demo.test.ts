import fs from 'node:fs/promises';
import type { z } from 'zod';
import type { Recording } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedManifest } from '../recordings/chain.js';
import { verifyRecording } from '../recordings/verify.js';
import { videoPathOf } from '../recordings/video.service.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { DEMO_PASSWORD, seedDemo } from './demo-data.js';

const COUNT = 40;
const DAY = 86_400_000;

describe.each(DATABASES)('demo data on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => server.stop());

  it('creates users who sign in with the demo password and hold their roles’ permissions', async () => {
    await seedDemo(server.services, { count: COUNT, dataDir: server.dataDir });
    const res = await server.call<{ response: { user: { effectivePermissions: string[] } } }>('POST', '/api/login', {
      body: { email: 'farid.nasser@demo.gatehouse.test', password: DEMO_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.response.user.effectivePermissions).toEqual(['list-host', 'create-tunnel']);
  });

  it('fills every screen that exists: nested groups, enrolled hosts, keys and tunnel definitions', async () => {
    const admin = await server.login();
    const counts = await server.call<Record<string, number>>('GET', '/api/navigation/counts', { token: admin });
    expect(counts.body).toMatchObject({
      totalGroups: 4,
      totalHosts: 5,
      connectedHosts: 0,
      totalTunnels: 7,
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

  it('writes recordings through the real storage: listed, intact, some live for days, RDP with video', async () => {
    const admin = await server.login();
    const list = await server.call<{ recordings: z.infer<typeof Recording>[] }>('GET', '/api/recording?limit=1000', {
      token: admin,
    });
    const all = list.body.recordings;
    expect(all).toHaveLength(COUNT);
    expect(all.every((r) => Date.now() - Date.parse(r.started_on) < 91 * DAY)).toBe(true);
    expect(all.filter((r) => r.type === 'ssh').length).toBeGreaterThan(COUNT / 2);
    const live = all.filter((r) => r.ended_on === null);
    expect(live.length).toBeGreaterThanOrEqual(9);
    expect(live.filter((r) => Date.now() - Date.parse(r.started_on) > DAY)).toHaveLength(3);

    const { signingPublicKey } = await server.services.gatewayKeys.keys();
    const rows = await Promise.all(all.map((r) => server.services.repositories.recordings.find(r.id)));
    let longest = 0;
    for (const row of rows) {
      if (!row) throw new Error('a listed recording has no row');
      const lines = (await fs.readFile(row.storagePath, 'utf8')).trimEnd().split('\n');
      longest = Math.max(longest, (JSON.parse(lines.at(-1) ?? '[0]') as [number])[0]);
      if (row.endedOn === null) {
        expect(row.manifest).toBeNull();
        continue;
      }
      const verdict = await verifyRecording(row.storagePath, row.manifest as SignedManifest, signingPublicKey);
      expect(verdict).toEqual({ intact: true, problems: [] });
    }
    expect(longest).toBeGreaterThan(24 * 3600);
    const rdp = rows.find((r) => r?.type === 'rdp' && r.hasVideo);
    if (!rdp) throw new Error('no RDP recording with a video');
    expect((await fs.stat(videoPathOf(rdp.storagePath))).size).toBe(rdp.videoBytes);
    const video = await fs.readFile(videoPathOf(rdp.storagePath));
    expect(video.subarray(4, 8).toString()).toBe('ftyp');
  });

  it('keeps the demo’s live sessions live through the recovery a server start runs', async () => {
    expect(await server.services.recordings.recoverOrphans(0)).toBe(0);
    const [row] = await server.services.database.query<{ live: number }>(
      'SELECT count(*)::int AS live FROM recordings WHERE ended_on IS NULL',
    );
    expect(row?.live).toBeGreaterThanOrEqual(9);
  });

  it('can run again without duplicating anything', async () => {
    const before = await server.services.repositories.users.count();
    const tunnelsBefore = await server.services.repositories.tunnels.count();
    const lines = await seedDemo(server.services, { count: COUNT, dataDir: server.dataDir });
    expect(await server.services.repositories.users.count()).toBe(before);
    expect(await server.services.repositories.tunnels.count()).toBe(tunnelsBefore);
    expect((await server.services.repositories.agents.counts()).total).toBe(5);
    expect(lines).toContain('Demo users were already there.');
    expect(lines).toContain(`Demo recordings were already there: ${COUNT}.`);
  });
});

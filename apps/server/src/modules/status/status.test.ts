import fs from 'node:fs';
import path from 'node:path';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Pods = { pods: { name: string; status: string; detail: string; logs?: string[] }[] };

describe.each(DATABASES)('system status on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { logLevel: 'info' });
    admin = await server.login();
  });
  afterAll(async () => server.stop());

  it('checks every component for real and counts the unhealthy ones in the navigation', async () => {
    const res = await server.call<Pods>('GET', '/api/pods', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.pods.map((p) => p.name)).toEqual(['api', 'gateway', 'database', 'recording-storage', 'agent-hub']);
    expect(res.body.pods.every((p) => p.status === 'Running')).toBe(true);
    expect(res.body.pods.find((p) => p.name === 'gateway')?.detail).toMatch(/^SSH-2\.0-/);
    const counts = await server.call('GET', '/api/navigation/counts', { token: admin });
    expect(counts.body).toMatchObject({ systemStatusHealthSummary: 'Healthy', totalUnhealthyPods: 0 });
  });

  it('shows a recording storage that cannot be written as Failed', async () => {
    const dir = path.join(server.dataDir, 'recordings');
    fs.rmSync(dir, { recursive: true, force: true });
    // A file where the folder should be: nothing can be written under it.
    fs.writeFileSync(dir, 'not a folder');
    try {
      const res = await server.call<Pods>('GET', '/api/pods', { token: admin });
      const storage = res.body.pods.find((p) => p.name === 'recording-storage');
      expect(storage?.status).toBe('Failed');
      expect(storage?.detail).toMatch(/EEXIST|ENOTDIR/);
      const counts = await server.call('GET', '/api/navigation/counts', { token: admin });
      expect(counts.body).toMatchObject({ systemStatusHealthSummary: 'Problem', totalUnhealthyPods: 1 });
    } finally {
      fs.rmSync(dir, { force: true });
    }
  });

  it('answers a component’s recent log lines to administrators only', async () => {
    // Something the gateway logs: a client that is not SSH.
    await server.call<Pods>('GET', '/api/pods', { token: admin });
    const res = await server.call<Pods>('GET', '/api/pods/api/logs?limit=50', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.pods[0]?.name).toBe('api');
    expect(res.body.pods[0]?.logs?.length).toBeGreaterThan(0);
    expect(res.body.pods[0]?.logs?.every((l) => !l.includes(admin))).toBe(true);
    expect((await server.call('GET', '/api/pods/etcd/logs', { token: admin })).status).toBe(404);
    await server.createUser('operator@example.test', 'operator-password', { permissions: ['manage-kubernetes'] });
    const operator = await server.login('operator@example.test', 'operator-password');
    expect((await server.call('GET', '/api/pods', { token: operator })).status).toBe(200);
    expect((await server.call('GET', '/api/pods/api/logs', { token: operator })).status).toBe(403);
  });
});

describe('system status with a stopped database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(async () => {
    await server.stop().catch(() => undefined);
  });

  it('shows the database as not Running and pushes the change to the cluster status socket', async () => {
    const admin = await server.login();
    const socket = connect(server.url, { auth: { token: admin }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const update = new Promise<{ summary: string; pods: { name: string; status: string }[] }>((resolve) =>
      socket.on('k8s_statefulset_update', resolve),
    );
    try {
      const status = server.services.status;
      const pods = await status.pods();
      expect(pods.find((p) => p.name === 'database')?.status).toBe('Running');
      await server.services.database.close();
      const after = await status.pods();
      expect(after.find((p) => p.name === 'database')).toMatchObject({ status: 'Failed' });
      expect(after.filter((p) => p.status !== 'Running').map((p) => p.name)).toEqual(['database']);
      // The first push after the database stopped names it as failed.
      const pushed = await update;
      expect(pushed.pods.find((p) => p.name === 'database')?.status).toBe('Failed');
      expect(pushed.summary).toBe('Problem');
    } finally {
      socket.close();
    }
  }, 30_000);
});

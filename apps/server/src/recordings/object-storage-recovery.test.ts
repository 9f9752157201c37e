import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { type RunningServer, startServer } from '../server.js';
import { eventually } from '../test/agent-process.js';
import { type TestServer, startTestServer, testConfig } from '../test/harness.js';
import { startS3Server } from '../test/s3-server.js';
import { objectStorageFromEnv } from './object-store.js';
import { videoPathOf } from './video.service.js';

const BUCKET = 'gatehouse-recovery';

// An instance dies with its disk while a session records: another instance, sharing PostgreSQL and
// the bucket, rebuilds the recording from the segments uploaded while it was live and signs it.
describe.skipIf(!process.env.TEST_DATABASE_URL)('recovery from object segments on another instance', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-s3-recovery-'));
  let s3: S3rver;
  let a: TestServer;
  let b: RunningServer;
  let admin: string;
  let agentId: string;

  beforeAll(async () => {
    const started = await startS3Server(dir, { buckets: [BUCKET] });
    s3 = started.server;
    const objectStorage = objectStorageFromEnv(started.env());
    const secretKey = 'cd'.repeat(32);
    a = await startTestServer('postgres', { objectStorage, secretKey });
    const [{ s: schema }] = (await a.services.database.query<{ s: string }>('SELECT current_schema() AS s')) as [
      { s: string },
    ];
    b = await startServer(testConfig({ objectStorage, secretKey }), {
      database: await openDatabase({ url: process.env.TEST_DATABASE_URL, searchPath: schema }),
    });
    admin = await a.login();
    agentId = await a.services.repositories.agents.create({
      hostname: 'db-01',
      os: 1,
      version: '2.0.0',
      credentialHash: crypto.randomUUID(),
      config: null,
      registeredWith: crypto.randomUUID(),
    });
  }, 40_000);
  afterAll(async () => {
    await b?.close();
    await b?.services.database.close();
    await a?.stop();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('rebuilds the cast and chain from the segments, signs what was committed, and stores it', async () => {
    const live = await a.services.recordings.start({
      type: 'ssh',
      agentId,
      hostname: 'db-01',
      userId: null,
      userEmail: 'mallory@example.test',
      definitionId: null as unknown as string,
      definitionName: 'db shell',
      width: 80,
      height: 24,
    });
    for (const line of ['$ cd /srv/data\r\n', '$ rm -rf /srv/data/customers\r\n', '$ exit\r\n']) {
      live.recorder.output(Buffer.from(line));
      await live.recorder.flush();
    }
    await a.services.recordings.committed(live.id);
    await a.services.recordingObjects!.tick(); // as its 2 s timer does
    const row = await a.services.repositories.recordings.find(live.id);
    // Instance A dies with its disk: its files are gone, and it is known gone.
    await live.recorder.finish();
    await a.services.recordingObjects!.untrack(live.id);
    for (const suffix of ['', '.chain']) fs.rmSync(`${row!.storagePath}${suffix}`);
    await b.services.database.query('UPDATE server_instances SET gone_at = now() WHERE id = $1', [
      a.services.instances.id,
    ]);
    expect(await b.services.recordings.recoverOrphans(0)).toBe(1);
    const stored = await eventually(
      async () => (await b.services.repositories.recordings.find(live.id))!,
      (r) => r.storage === 's3',
      10_000,
    );
    expect(stored.endReason).toBe('recovered');
    expect(stored.chunks).toBe(3);
    const cast = await fetch(`${b.url}/api/recording/${live.id}/cast`, { headers: { 'authentication-token': admin } });
    expect(await cast.text()).toContain('rm -rf /srv/data/customers');
    const verify = (await (
      await fetch(`${b.url}/api/recording/${live.id}/verify`, { headers: { 'authentication-token': admin } })
    ).json()) as { status: string; message: string };
    expect(verify.status, verify.message).toBe('intact');
    // B's local copy went once the final objects were there.
    await eventually(
      async () => fs.existsSync(stored.storagePath),
      (exists) => !exists,
      5_000,
    );
  }, 30_000);

  it('keeps RDP video pieces as objects, replays ranges across them from the other instance, then joins them', async () => {
    const live = await a.services.recordings.start({
      type: 'rdp',
      agentId,
      hostname: 'db-01',
      userId: null,
      userEmail: 'mallory@example.test',
      definitionId: null as unknown as string,
      definitionName: 'db desktop',
      width: 1024,
      height: 768,
    });
    const videos = a.services.videos;
    const pieces = [Buffer.alloc(3000, 1), Buffer.alloc(5000, 2), Buffer.alloc(2000, 3)];
    const whole = Buffer.concat(pieces);
    let offset = 0;
    for (const [i, data] of pieces.entries()) {
      if (i === pieces.length - 1) break;
      offset = await videos.append({ agentId, id: live.id, offset, data, final: false });
    }
    const key = (await a.services.repositories.recordings.find(live.id))!.objectKey!;
    expect(fs.existsSync(videoPathOf(live.row.storagePath))).toBe(false);
    const range = (from: number, to: number) =>
      fetch(`${b.url}/api/recording/${live.id}/video`, {
        headers: { 'authentication-token': admin, range: `bytes=${from}-${to}` },
      });
    // While it grows: a range across two pieces, from the instance that did not take them.
    const across = await range(2500, 3499);
    expect(across.status).toBe(206);
    expect(Buffer.from(await across.arrayBuffer())).toEqual(whole.subarray(2500, 3500));
    await videos.append({ agentId, id: live.id, offset, data: pieces[2]!, final: true });
    const objects = (await a.services.recordingObjects!.store.list(`${key}/`)).map((o) => o.key);
    expect(objects).toContain(`${key}/video`);
    expect(objects.some((k) => k.includes('/segments/video/'))).toBe(false);
    const tail = await range(7000, 9999);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(7000, 10_000));
    await a.services.recordings.finish(live, 'closed');
  }, 20_000);

  it('deletes the objects of recordings past retention, and keeps those on legal hold', async () => {
    const stored: string[] = [];
    for (const name of ['expired', 'held']) {
      const live = await a.services.recordings.start({
        type: 'ssh',
        agentId,
        hostname: 'db-01',
        userId: null,
        userEmail: 'mallory@example.test',
        definitionId: null as unknown as string,
        definitionName: name,
        width: 80,
        height: 24,
      });
      live.recorder.output(Buffer.from(`$ ${name}\r\n`));
      await live.recorder.flush();
      await a.services.recordings.finish(live, 'closed');
      expect(await a.services.recordingObjects!.finalize(live.id)).toBe(true);
      stored.push(live.id);
    }
    const [expired, held] = stored as [string, string];
    await a.services.database.query(
      "UPDATE recordings SET started_on = now() - interval '41 days', ended_on = now() - interval '40 days' WHERE id = ANY($1)",
      [stored],
    );
    await a.services.database.query(
      "UPDATE recordings SET legal_hold = true, legal_hold_by = 'counsel@example.test', legal_hold_at = now(), legal_hold_reason = 'case 7' WHERE id = $1",
      [held],
    );
    const saved = await a.call('POST', '/api/settings', { token: admin, body: { recording_retention_days: 30 } });
    expect(saved.status).toBe(200);
    const keys = async (id: string) =>
      a.services.recordingObjects!.store.list(`${a.services.recordingObjects!.keyFor(id)}/`);
    expect(await keys(expired)).toHaveLength(3);
    // Both instances sweep, as every instance does each hour: each row (and its objects) goes once.
    await Promise.all([a.services.retention.sweep(), b.services.retention.sweep()]);
    expect(await a.services.repositories.recordings.find(expired)).toBeUndefined();
    // A sweep the settings change started may be the one that claimed the row: its deletes may still run.
    await eventually(
      () => keys(expired),
      (left) => left.length === 0,
      10_000,
    );
    expect((await keys(held)).map((o) => o.key.slice(o.key.lastIndexOf('/') + 1)).sort()).toEqual([
      'cast',
      'chain',
      'manifest',
    ]);
    const verify = (await (
      await fetch(`${b.url}/api/recording/${held}/verify`, { headers: { 'authentication-token': admin } })
    ).json()) as { status: string; message: string };
    expect(verify.status, verify.message).toBe('intact');
  }, 20_000);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { type RunningServer, startServer } from '../server.js';
import { eventually } from '../test/agent-process.js';
import { startS3Server } from '../test/s3-server.js';
import type { AgentProcess } from '../test/agent-process.js';
import { enrolGatewayHost } from '../test/gateway-host.js';
import { type TestServer, startTestServer, testConfig } from '../test/harness.js';
import { type Sshd, ssh, startSshd, userKey } from '../test/sshd.js';
import { type ObjectStorageConfig, ObjectStore, objectStorageFromEnv } from './object-store.js';

const BUCKET = 'gatehouse-recordings';

async function startS3(directory: string, port = 0): Promise<{ server: S3rver; port: number }> {
  const { server, port: bound } = await startS3Server(directory, { buckets: [BUCKET], port });
  return { server, port: bound };
}

function s3Env(port: number): ObjectStorageConfig {
  return objectStorageFromEnv({
    GATEHOUSE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    GATEHOUSE_S3_BUCKET: BUCKET,
    GATEHOUSE_S3_REGION: 'us-east-1',
    GATEHOUSE_S3_ACCESS_KEY_ID: 'S3RVER',
    GATEHOUSE_S3_SECRET_ACCESS_KEY: 'S3RVER',
    GATEHOUSE_S3_FORCE_PATH_STYLE: 'true',
    GATEHOUSE_S3_PREFIX: 'gh-test',
  })!;
}

async function objectBytes(store: ObjectStore, key: string): Promise<Buffer> {
  const answer = await store.client.send(new GetObjectCommand({ Bucket: store.bucket, Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

// Two instances sharing PostgreSQL and one S3-compatible server: a real SSH session recorded on A
// goes to the bucket while live, then as final objects; B replays, verifies and bundles it.
describe.skipIf(!process.env.TEST_DATABASE_URL)('recordings in object storage', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-s3-'));
  const s3Dir = path.join(dir, 's3');
  let s3: { server: S3rver; port: number };
  let config: ObjectStorageConfig;
  let store: ObjectStore;
  let a: TestServer;
  let b: RunningServer;
  let admin: string;
  let sshd: Sshd;
  let agent: AgentProcess;
  const vera = userKey(dir, 'vera');
  const session = (command: string) =>
    ssh(['-p', String(a.sshPort), '-i', vera.file, 'vera@example.test@web-01@127.0.0.1', command], {
      timeoutMs: 40_000,
    });
  const row = async (id: string) => (await a.services.repositories.recordings.find(id))!;
  const liveId = () =>
    eventually(
      async () =>
        (await a.call<{ recordings: { id: string }[] }>('GET', '/api/recording?live=true', { token: admin })).body
          .recordings[0]?.id,
      (id) => id !== undefined,
      20_000,
    ) as Promise<string>;

  beforeAll(async () => {
    fs.mkdirSync(s3Dir);
    s3 = await startS3(s3Dir);
    config = s3Env(s3.port);
    store = new ObjectStore(config);
    const secretKey = 'ab'.repeat(32);
    a = await startTestServer('postgres', { objectStorage: config, secretKey });
    const [{ s: schema }] = (await a.services.database.query<{ s: string }>('SELECT current_schema() AS s')) as [
      { s: string },
    ];
    b = await startServer(testConfig({ objectStorage: config, secretKey }), {
      database: await openDatabase({ url: process.env.TEST_DATABASE_URL, searchPath: schema }),
    });
    admin = await a.login();
    sshd = await startSshd();
    ({ agent } = await enrolGatewayHost(a, admin, sshd, {
      hostname: 'web-01',
      definition: 'web-01 shell',
      user: { email: 'vera@example.test', password: 'password-123', publicKey: vera.publicKey },
    }));
  }, 60_000);
  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    await b?.close();
    await b?.services.database.close();
    await a?.stop();
    store?.close();
    await s3?.server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  let recordingId: string;

  it('uploads output within seconds while live, then final objects, and removes the local files', async () => {
    const run = session('echo s3-live-$((6*7)); sleep 4; head -c 200000 /dev/zero | tr "\\0" y; echo s3-done');
    recordingId = await liveId();
    const key = (await row(recordingId)).objectKey!;
    expect(key).toBe(`gh-test/recordings/${recordingId}`);
    const local = (await row(recordingId)).storagePath;
    // Within a few seconds of the output reaching the recorder, a segment holding it is in the bucket.
    await eventually(
      async () => fs.existsSync(local) && fs.readFileSync(local, 'utf8').includes('s3-live-42'),
      Boolean,
    );
    const seen = Date.now();
    await eventually(
      async () => {
        const segments = await store.list(`${key}/segments/cast/`);
        const bytes = await Promise.all(segments.map((s) => objectBytes(store, s.key)));
        return Buffer.concat(bytes).toString('utf8').includes('s3-live-42');
      },
      Boolean,
      5_000,
    );
    expect(Date.now() - seen).toBeLessThan(5_000);
    expect((await row(recordingId)).endedOn).toBeNull(); // still live
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    const stored = await eventually(
      () => row(recordingId),
      (r) => r.storage === 's3',
      15_000,
    );
    expect(stored.endedOn).not.toBeNull();
    // Then the segments and the local files go.
    const keys = await eventually(
      async () => (await store.list(`${key}/`)).map((o) => o.key),
      (k) => k.length === 3,
      5_000,
    );
    expect(keys.sort()).toEqual([`${key}/cast`, `${key}/chain`, `${key}/manifest`]);
    await eventually(
      async () => ['', '.chain', '.manifest.json'].filter((suffix) => fs.existsSync(`${local}${suffix}`)),
      (left) => left.length === 0,
      5_000,
    );
    const cast = await objectBytes(store, `${key}/cast`);
    expect(cast.length).toBe(stored.bytes);
    expect(cast.toString('utf8')).toContain('s3-done');
  }, 50_000);

  it('replays it with ranges from the other instance, verifies it intact there and bundles it', async () => {
    const cast = await objectBytes(store, `${(await row(recordingId)).objectKey}/cast`);
    const get = (range?: string) =>
      fetch(`${b.url}/api/recording/${recordingId}/cast`, {
        headers: { 'authentication-token': admin, ...(range ? { range } : {}) },
      });
    const part = await get('bytes=10-4009');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-4009/${cast.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(cast.subarray(10, 4010));
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(cast);
    const outside = await get(`bytes=${cast.length}-`);
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${cast.length}`);
    const detail = (await (
      await fetch(`${b.url}/api/recording/${recordingId}/data`, { headers: { 'authentication-token': admin } })
    ).json()) as { bytes: number };
    expect(detail.bytes).toBe(cast.length);
    const seek = await fetch(`${b.url}/api/recording/${recordingId}/seek?t=0`, {
      headers: { 'authentication-token': admin },
    });
    expect(seek.status).toBe(200);
    const verify = (await (
      await fetch(`${b.url}/api/recording/${recordingId}/verify`, { headers: { 'authentication-token': admin } })
    ).json()) as { status: string; message: string };
    expect(verify.status, verify.message).toBe('intact');
    const bundle = await fetch(`${b.url}/api/recording/${recordingId}/bundle`, {
      headers: { 'authentication-token': admin },
    });
    expect(bundle.status).toBe(200);
    const tar = Buffer.from(await bundle.arrayBuffer());
    expect(tar.length).toBe(Number(bundle.headers.get('content-length')));
    expect(tar.includes(cast.subarray(0, 200))).toBe(true);
    // Its text was indexed (from the local file or the objects) and is found from either instance.
    const found = await eventually(
      async () =>
        await (
          await fetch(`${b.url}/api/recording/search?q=s3-live-42`, { headers: { 'authentication-token': admin } })
        ).text(),
      (text) => text.includes(recordingId),
      10_000,
    );
    expect(found).toContain(recordingId);
  }, 30_000);

  it('calls a changed byte in the stored object tampered', async () => {
    const key = `${(await row(recordingId)).objectKey}/cast`;
    const cast = await objectBytes(store, key);
    const changed = Buffer.from(cast);
    const at = changed.indexOf('s3-done');
    changed[at] = 'S'.charCodeAt(0);
    await store.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: key, Body: changed }));
    try {
      const verify = (await (
        await fetch(`${b.url}/api/recording/${recordingId}/verify`, { headers: { 'authentication-token': admin } })
      ).json()) as { status: string; message: string };
      expect(verify.status, verify.message).toBe('tampered');
    } finally {
      await store.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: key, Body: cast }));
    }
  }, 20_000);

  it('keeps the local spool while the object storage is down and uploads it once it is back', async () => {
    await s3.server.close();
    const run = session('echo while-s3-down; sleep 1; echo down-done');
    const id = await liveId();
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    const ended = await eventually(
      () => row(id),
      (r) => r.endedOn !== null,
      15_000,
    );
    await new Promise((r) => setTimeout(r, 2_500)); // an upload attempt failed meanwhile
    expect((await row(id)).storage).toBe('local');
    expect(fs.readFileSync(ended.storagePath, 'utf8')).toContain('down-done');
    // Replay on the other instance says the storage cannot be read: never a 500.
    const away = await fetch(`${b.url}/api/recording/${recordingId}/cast`, {
      headers: { 'authentication-token': admin },
    });
    expect(away.status).toBe(503);
    expect(((await away.json()) as { message: string }).message).toMatch(/object storage/i);
    s3 = await startS3(s3Dir, s3.port);
    const stored = await eventually(
      () => row(id),
      (r) => r.storage === 's3',
      25_000,
    );
    // The row names the objects first; the local spool is removed right after.
    await eventually(
      async () => fs.existsSync(ended.storagePath),
      (exists) => !exists,
      10_000,
    );
    expect((await objectBytes(store, `${stored.objectKey}/cast`)).toString('utf8')).toContain('down-done');
  }, 55_000);
});

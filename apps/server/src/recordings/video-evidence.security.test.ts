import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import type S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { startS3Server } from '../test/s3-server.js';
import { type SignedManifest, type SignedVideoManifest, keyFingerprint } from './chain.js';
import { objectStorageFromEnv } from './object-store.js';
import { videoChainPathOf, videoManifestPathOf, videoPathOf } from './video.service.js';

const VERIFY_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/verify-recording.js');

type Integrity = {
  status: string;
  message: string;
  video?: { status: string; message: string; bytes: number; pieces: number; cut: boolean };
};

/**
 * The property: an RDP session's video is evidence. Each committed piece's SHA-256 is chained and
 * the chain's head signed (video.service.ts, chain.ts), so one changed or missing byte in the
 * stored .mp4 reads tampered, naming the piece, in the API (and so the console's badge) and in
 * `npm run verify-recording`; a retry adds no piece, another agent cannot add one, and the files
 * are owner-only (0600). Pieces are real random bytes uploaded through the real route by enrolled
 * agents (the bytes' content is not what is checked: their digests are).
 */
async function fixture(server: TestServer) {
  const admin = await server.login();
  const key = (
    await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'video', uses: 2 } })
  ).body.key;
  const enrol = async (hostname: string) =>
    (
      await server.call<{ id: string; credential: string }>('POST', '/api/agent/register', {
        body: { key, hostname, os: 1, version: 'test' },
      })
    ).body;
  const desk = await enrol('desk-evidence');
  const forger = await enrol('forger-evidence');
  const upload = async (
    agent: { id: string; credential: string },
    id: string,
    offset: number,
    body: Buffer,
    final = false,
  ) => {
    const res = await fetch(`${server.url}/api/recording/${id}/video?offset=${offset}${final ? '&final=true' : ''}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        [AGENT_ID_HEADER]: agent.id,
        [AGENT_CREDENTIAL_HEADER]: agent.credential,
      },
      body,
    });
    return { status: res.status, body: (await res.json()) as { bytes?: number; message?: string } };
  };
  const start = () =>
    server.services.recordings.start({
      type: 'rdp',
      agentId: desk.id,
      hostname: 'desk-evidence',
      userId: null,
      userEmail: 'admin@example.test',
      definitionId: null as never,
      definitionName: 'desk rdp',
      width: 1024,
      height: 768,
    });
  const verify = async (id: string) =>
    (await server.call<Integrity>('GET', `/api/recording/${id}/verify`, { token: admin })).body;
  const pieceRows = async (id: string) =>
    (
      await server.services.database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM recording_video_pieces WHERE recording_id = $1',
        [id],
      )
    )[0]!.n;
  const row = async (id: string) => (await server.services.repositories.recordings.find(id))!;
  const bundle = async (id: string) => {
    const res = await fetch(`${server.url}/api/recording/${id}/bundle`, { headers: { 'authentication-token': admin } });
    return { status: res.status, text: res.status === 200 ? '' : await res.text() };
  };
  return { admin, desk, forger, upload, start, verify, pieceRows, row, bundle };
}

/** `npm run verify-recording` (the built command) on a cast, trusting the server's key. */
async function cli(server: TestServer, cast: string): Promise<{ code: number; out: string }> {
  const fingerprint = keyFingerprint((await server.services.gatewayKeys.keys()).signingPublicKey);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [VERIFY_CLI, cast, '--key', fingerprint]);
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

function flipByte(file: string, at: number): void {
  const fd = fs.openSync(file, 'r+');
  const one = Buffer.alloc(1);
  fs.readSync(fd, one, 0, 1, at);
  one[0] = one[0]! ^ 0x01;
  fs.writeSync(fd, one, 0, 1, at);
  fs.closeSync(fd);
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe.each(DATABASES)('RDP video inside the evidence on %s', (kind) => {
  let server: TestServer;
  let f: Awaited<ReturnType<typeof fixture>>;
  const pieces = [randomBytes(70_000), randomBytes(50_000), randomBytes(9_000)];

  beforeAll(async () => {
    if (!fs.existsSync(VERIFY_CLI)) throw new Error(`${VERIFY_CLI} is missing: run npm run build first`);
    server = await startTestServer(kind);
    f = await fixture(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a video uploaded in pieces verifies intact (API and CLI), is signed, and its files are owner-only', async () => {
    const live = await f.start();
    const id = live.id;
    let offset = 0;
    for (const [i, piece] of pieces.entries()) {
      const res = await f.upload(f.desk, id, offset, piece, i === pieces.length - 1);
      expect(res.status).toBe(200);
      offset += piece.length;
      expect(res.body.bytes).toBe(offset);
    }
    // A retry of an already stored piece (its answer was lost): acknowledged, no second row.
    const retry = await f.upload(f.desk, id, pieces[0]!.length, pieces[1]!);
    expect(retry.status).toBe(200);
    expect(await f.pieceRows(id)).toBe(3);
    // Another agent's upload, even at the right offset, is refused and adds nothing.
    const forged = await f.upload(f.forger, id, offset, randomBytes(100));
    expect(forged.status).toBe(403);
    const forgedFinal = await f.upload(f.forger, id, 0, pieces[0]!);
    expect(forgedFinal.status).toBe(403);
    expect(await f.pieceRows(id)).toBe(3);

    // The video was final before the session ended: the terminal manifest states it too.
    const manifest = await server.services.recordings.finish(live, 'closed');
    expect(manifest?.video).toMatchObject({ bytes: offset, pieces: 3 });
    const row = await f.row(id);
    const videoManifest = row.videoManifest as SignedVideoManifest;
    expect(videoManifest).toMatchObject({ statement: 'gatehouse-video', bytes: offset, pieces: 3, end: 'final' });
    expect(videoManifest.chain_head).toBe(row.videoChainHead);
    expect(videoManifest.key_fingerprint).toBe(
      keyFingerprint((await server.services.gatewayKeys.keys()).signingPublicKey),
    );

    const integrity = await f.verify(id);
    expect(integrity.status).toBe('intact');
    expect(integrity.video).toMatchObject({ status: 'intact', pieces: 3, bytes: offset, cut: false });
    const ok = await cli(server, row.storagePath);
    expect(ok.out).toContain('video intact: 3 pieces');
    expect(ok.code).toBe(0);

    // Owner-only: the video, its manifest and piece list, and every recording file in the data folder.
    for (const file of [
      videoPathOf(row.storagePath),
      videoManifestPathOf(row.storagePath),
      videoChainPathOf(row.storagePath),
    ])
      expect(fs.existsSync(file)).toBe(true);
    const files = filesUnder(path.join(server.dataDir, 'recordings'));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) expect({ file, mode: fs.statSync(file).mode & 0o777 }).toEqual({ file, mode: 0o600 });
  });

  it('one changed byte in the stored .mp4 reads tampered, naming the piece, in the API and the CLI', async () => {
    const id = (
      await server.services.database.query<{ id: string }>(
        "SELECT id FROM recordings WHERE type = 'rdp' AND video_manifest IS NOT NULL ORDER BY started_on LIMIT 1",
      )
    )[0]!.id;
    const row = await f.row(id);
    const video = videoPathOf(row.storagePath);
    const at = pieces[0]!.length + 1234; // inside piece 2
    expect((await f.bundle(id)).status).toBe(200);
    flipByte(video, at);
    try {
      const integrity = await f.verify(id);
      expect(integrity.status).toBe('tampered');
      expect(integrity.video?.status).toBe('tampered');
      // The evidence bundle never signs a statement of a changed video.
      const bundle = await f.bundle(id);
      expect(bundle.status).toBe(409);
      expect(bundle.text).toContain('video piece 2');
      const range = `bytes ${pieces[0]!.length}–${pieces[0]!.length + pieces[1]!.length - 1}`;
      expect(integrity.message).toContain(`video piece 2 (${range}) was changed`);
      expect(integrity.message).not.toContain('video piece 1 ');
      const out = await cli(server, row.storagePath);
      expect(out.code).toBe(1);
      expect(out.out).toContain('TAMPERED');
      expect(out.out).toContain(`video piece 2 (${range}) was changed`);
    } finally {
      flipByte(video, at);
    }
    expect((await f.verify(id)).status).toBe('intact');

    // Missing bytes: the file cut short.
    const whole = fs.readFileSync(video);
    fs.truncateSync(video, whole.length - 100);
    try {
      const integrity = await f.verify(id);
      expect(integrity.status).toBe('tampered');
      expect(integrity.message).toContain('video piece 3');
      expect(integrity.message).toContain('is missing');
      expect((await cli(server, row.storagePath)).code).toBe(1);
    } finally {
      fs.writeFileSync(video, whole);
    }
    // Bytes added after the signature.
    fs.appendFileSync(video, Buffer.from('more'));
    try {
      expect((await f.verify(id)).message).toContain('4 bytes past');
    } finally {
      fs.truncateSync(video, whole.length);
    }
    // A piece's recorded digest rewritten in the database (to match an edited file): the chain breaks.
    await server.services.database.query(
      "UPDATE recording_video_pieces SET sha256 = repeat('0', 64) WHERE recording_id = $1 AND seq = 1",
      [id],
    );
    const chain = await f.verify(id);
    expect(chain.status).toBe('tampered');
    expect(chain.message).toContain('does not chain');
    // The video manifest's statements edited: the signature no longer holds.
    await server.services.database.query(
      "UPDATE recordings SET video_manifest = jsonb_set(video_manifest, '{bytes}', '1') WHERE id = $1",
      [id],
    );
    expect((await f.verify(id)).message).toContain('video manifest’s signature does not match');
    // The signed video manifest file beside the video edited: the CLI finds it.
    const file = videoManifestPathOf(row.storagePath);
    const signed = JSON.parse(fs.readFileSync(file, 'utf8')) as SignedVideoManifest;
    fs.writeFileSync(file, JSON.stringify({ ...signed, pieces: 2 }));
    const edited = await cli(server, row.storagePath);
    expect(edited.code).toBe(1);
    expect(edited.out).toContain('signature does not match');
  });

  it('a video still uploading says so; one never finished is signed as cut after the grace and closed', async () => {
    const live = await f.start();
    const id = live.id;
    expect((await f.upload(f.desk, id, 0, pieces[0]!)).status).toBe(200);
    const manifest = (await server.services.recordings.finish(live, 'closed')) as SignedManifest;
    expect(manifest.video).toBeUndefined();
    const uploading = await f.verify(id);
    expect(uploading.status).toBe('intact');
    expect(uploading.video).toMatchObject({ status: 'uploading', pieces: 1 });
    const row = await f.row(id);
    const cliUploading = await cli(server, row.storagePath);
    expect(cliUploading.out).toContain('NOT SIGNED YET');
    expect(cliUploading.code).toBe(1);
    // Even unsigned, a changed byte in a committed piece is found.
    flipByte(videoPathOf(row.storagePath), 10);
    expect((await f.verify(id)).video?.status).toBe('tampered');
    flipByte(videoPathOf(row.storagePath), 10);

    // Within the grace nothing is signed; past it, what was committed is signed as cut.
    expect(await server.services.videos.sealAbandoned()).toBe(0);
    // Bytes an interrupted write left past the committed length are cut, not signed.
    fs.appendFileSync(videoPathOf(row.storagePath), Buffer.from('half a piece'));
    await new Promise((r) => setTimeout(r, 20));
    expect(await server.services.videos.sealAbandoned(1)).toBe(1);
    expect(await server.services.videos.sealAbandoned(1)).toBe(0);
    const cut = await f.verify(id);
    expect(cut.status).toBe('intact');
    expect(cut.video).toMatchObject({ status: 'intact', cut: true, pieces: 1, bytes: pieces[0]!.length });
    expect((await cli(server, row.storagePath)).code).toBe(0);
    expect((await f.upload(f.desk, id, pieces[0]!.length, pieces[1]!)).status).toBe(409);
    expect(fs.statSync(videoManifestPathOf(row.storagePath)).mode & 0o777).toBe(0o600);
  });
});

// Object storage: the pieces are segment objects, then one joined object; verification reads them there.
describe('RDP video inside the evidence in object storage', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-s3-video-evidence-'));
  let s3: S3rver;
  let server: TestServer;
  let f: Awaited<ReturnType<typeof fixture>>;

  beforeAll(async () => {
    const started = await startS3Server(dir, { buckets: ['evidence'] });
    s3 = started.server;
    server = await startTestServer(DATABASES.at(-1)!, { objectStorage: objectStorageFromEnv(started.env()) });
    f = await fixture(server);
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a changed object reads tampered, naming the piece', async () => {
    const live = await f.start();
    const pieces = [randomBytes(40_000), randomBytes(30_000)];
    expect((await f.upload(f.desk, live.id, 0, pieces[0]!)).status).toBe(200);
    // While growing, the pieces are read across their segment objects.
    expect((await f.verify(live.id)).status).toBe('live');
    expect((await f.upload(f.desk, live.id, pieces[0]!.length, pieces[1]!, true)).status).toBe(200);
    await server.services.recordings.finish(live, 'closed');
    const row = await f.row(live.id);
    expect(fs.existsSync(videoPathOf(row.storagePath))).toBe(false);
    expect((await f.verify(live.id)).video).toMatchObject({ status: 'intact', pieces: 2 });
    const store = server.services.recordingObjects!;
    const changed = Buffer.concat(pieces);
    changed[40_000 + 7] = changed[40_000 + 7]! ^ 0xff;
    // The joined object replaced by one with a byte changed in piece 2.
    await (store as unknown as { store: { put(key: string, data: Buffer): Promise<void> } }).store.put(
      `${row.objectKey}/video`,
      changed,
    );
    const integrity = await f.verify(live.id);
    expect(integrity.status).toBe('tampered');
    expect(integrity.message).toContain('video piece 2 (bytes 40000–69999) was changed');
  });
});

import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { type ChainEntry, type SignedManifest, chainLine, chainNext, chainStart, parseChainLine } from './chain.js';
import type { LiveRecording } from './recordings.service.js';
import { RecordingsService } from './recordings.service.js';

const VERIFY_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/verify-recording.js');

/** The built `npm run verify-recording` on a file, trusting the key given. */
function verifyCommand(file: string, key: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [VERIFY_CLI, file, '--key', key], (error, stdout) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout }),
    );
  });
}

/** A recording's files as chunks: the header, and each chained chunk's bytes. */
async function readChunks(file: string): Promise<{ header: Buffer; chunks: Buffer[] }> {
  const cast = await fs.readFile(file);
  const entries = (await fs.readFile(`${file}.chain`, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => parseChainLine(line)!);
  return {
    header: cast.subarray(0, entries[0]!.offset),
    chunks: entries.map((e) => cast.subarray(e.offset, e.offset + e.length)),
  };
}

/** Writes a recording's files anew from chunks, with a chain rebuilt as the recorder builds it. */
async function rewrite(file: string, id: string, header: Buffer, chunks: Buffer[]): Promise<void> {
  let link = chainStart(id);
  let offset = header.length;
  const entries: ChainEntry[] = [];
  for (const [i, chunk] of chunks.entries()) {
    link = chainNext(link, chunk);
    entries.push({ seq: i + 1, offset, length: chunk.length, link });
    offset += chunk.length;
  }
  await fs.writeFile(file, Buffer.concat([header, ...chunks]));
  await fs.writeFile(`${file}.chain`, entries.map(chainLine).join(''));
}

// A recording written by the real recorder and service; the server dies (kill -9: no finish, its
// memory lost); someone with the recordings folder edits the cast and rebuilds the unkeyed chain;
// the next start recovers it. What is signed must be what the database committed, so the forgery
// is called tampered, and an honest crash still verifies intact, losing only what was never committed.
describe.each(DATABASES)('recovery signs only what the database committed, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let agentId: string;
  const recorders: LiveRecording[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    agentId = await server.services.repositories.agents.create({
      hostname: 'db-01',
      os: 1,
      version: '2.0.0',
      credentialHash: crypto.randomUUID(),
      config: null,
      registeredWith: crypto.randomUUID(),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const LINES = ['$ cd /srv/data\r\n', '$ rm -rf /srv/data/customers\r\n', '$ exit\r\n'];

  /** A live session through the real service: one chunk per line, each committed to the row. */
  async function record(lines: string[] = LINES): Promise<LiveRecording> {
    const live = await server.services.recordings.start({
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
    recorders.push(live);
    for (const line of lines) {
      live.recorder.output(Buffer.from(line));
      await live.recorder.flush();
    }
    await server.services.recordings.committed(live.id);
    return live;
  }

  /**
   * The process dies: its files are closed as they are, nothing is finished or signed, and the row
   * stays open, of no running instance (as after a crash).
   */
  async function crash(live: LiveRecording): Promise<void> {
    await live.recorder.finish();
    await server.services.database.query('UPDATE recordings SET instance_id = NULL WHERE id = $1', [live.id]);
  }

  /** A new server process on the same database and files: it recovers the open recordings. */
  async function restart(): Promise<void> {
    const restarted = new RecordingsService(
      server.services.repositories.recordings,
      server.dataDir,
      async () => (await server.services.gatewayKeys.keys()).signingKey,
      server.services.log,
    );
    restarted.audit = (entry) => server.services.repositories.audit.append(entry);
    try {
      await restarted.recoverOrphans(0);
    } finally {
      restarted.close();
    }
  }

  const row = async (id: string) => (await server.services.repositories.recordings.find(id))!;
  const verify = (id: string) =>
    server.call<{ status: string; message: string }>('GET', `/api/recording/${id}/verify`, { token: admin });
  const tamperedAudits = async (id: string) =>
    (
      await server.services.database.query<{ detail: { why: string } }>(
        "SELECT detail FROM audit_log WHERE action = 'recording.tampered' AND target = $1",
        [id],
      )
    ).map((r) => r.detail.why);
  const fingerprint = async () => (await server.services.gatewayKeys.keys()).signingFingerprint;

  const FORGERIES = {
    'a command replaced': (chunks: Buffer[]) =>
      chunks.map((c) => Buffer.from(c.toString().replace('rm -rf /srv/data/customers', 'ls -l /srv/data/customers'))),
    'the last chunk dropped': (chunks: Buffer[]) => chunks.slice(0, -1),
    'a command replaced and the last chunk dropped': (chunks: Buffer[]) =>
      chunks
        .slice(0, -1)
        .map((c) => Buffer.from(c.toString().replace('rm -rf /srv/data/customers', 'ls -l /srv/data/customers'))),
  };

  it.each(Object.keys(FORGERIES) as (keyof typeof FORGERIES)[])(
    'calls a crashed recording forged with %s (chain rebuilt) tampered, signing the committed progress',
    async (name) => {
      const live = await record();
      const committed = await row(live.id);
      expect(committed).toMatchObject({ chunks: 3, endedOn: null });
      await crash(live);
      const file = live.row.storagePath;
      const { header, chunks } = await readChunks(file);
      await rewrite(file, live.id, header, FORGERIES[name](chunks));
      const forged = await fs.readFile(file);

      await restart();

      const after = await row(live.id);
      const manifest = after.manifest as SignedManifest;
      // The database's statements were signed, not the files'; the files were left as they are.
      expect(manifest).toMatchObject({
        end_reason: 'recovered',
        chunks: committed.chunks,
        bytes: committed.bytes,
        chain_head: committed.chainHead,
        header_sha256: committed.headerSha256,
      });
      expect(await fs.readFile(file)).toEqual(forged);
      const verdict = await verify(live.id);
      expect(verdict.body.status).toBe('tampered');
      expect(verdict.body.message).toMatch(/the chain does not end where the manifest says/);
      expect(await tamperedAudits(live.id)).toEqual([expect.stringMatching(/entry 3|the cast file has \d+ bytes/)]);
      // The command line says so too, trusting only the fingerprint.
      const command = await verifyCommand(file, await fingerprint());
      expect(command.code).toBe(1);
      expect(command.stdout).toMatch(/^TAMPERED:\n.*the chain does not end where the manifest says/s);
    },
  );

  it('calls a crashed recording whose cast lost its committed tail (chain kept) tampered', async () => {
    const live = await record();
    const committed = await row(live.id);
    await crash(live);
    const file = live.row.storagePath;
    const { header, chunks } = await readChunks(file);
    await fs.writeFile(file, Buffer.concat([header, ...chunks.slice(0, -1)]));
    await restart();
    expect((await row(live.id)).manifest).toMatchObject({ chunks: 3, bytes: committed.bytes });
    expect((await verify(live.id)).body).toMatchObject({
      status: 'tampered',
      message: /bytes past the end of the file/,
    });
    expect(await tamperedAudits(live.id)).toEqual([expect.stringMatching(/the cast file has \d+ bytes/)]);
  });

  it('never signs more: a forged chunk chained after the committed ones is cut', async () => {
    const live = await record();
    const committed = await row(live.id);
    await crash(live);
    const file = live.row.storagePath;
    const { header, chunks } = await readChunks(file);
    await rewrite(file, live.id, header, [...chunks, Buffer.from('[9.5,"o","$ echo all clear\\r\\n"]\n')]);
    await restart();
    expect((await fs.stat(file)).size).toBe(committed.bytes);
    expect(await fs.readFile(file, 'utf8')).not.toContain('all clear');
    expect((await verify(live.id)).body.status).toBe('intact');
    expect(await tamperedAudits(live.id)).toEqual([]);
  });

  it('an honest crash verifies intact, losing only the chunk written but not yet committed', async () => {
    const live = await record();
    const committed = await row(live.id);
    const file = live.row.storagePath;
    const before = await fs.readFile(file);
    // The last chunk reaches the disk, but the process dies before the database commits it.
    const repository = server.services.repositories.recordings;
    const progressMany = repository.progressMany.bind(repository);
    repository.progressMany = () => new Promise<string[]>(() => undefined);
    try {
      live.recorder.output(Buffer.from('$ echo never committed\r\n'));
      await live.recorder.flush();
    } finally {
      repository.progressMany = progressMany;
    }
    expect(await fs.readFile(file, 'utf8')).toContain('never committed');
    await crash(live);
    await restart();
    const after = await row(live.id);
    expect(after).toMatchObject({ endReason: 'recovered', chunks: 3, bytes: committed.bytes });
    expect(await fs.readFile(file)).toEqual(before);
    expect((await fs.readFile(`${file}.chain`, 'utf8')).trim().split('\n')).toHaveLength(3);
    expect((await verify(live.id)).body).toMatchObject({ status: 'intact' });
    expect(await tamperedAudits(live.id)).toEqual([]);
    const command = await verifyCommand(file, await fingerprint());
    expect(command).toMatchObject({ code: 0, stdout: expect.stringMatching(/^intact: 3 chunks/) as unknown });
  });

  it('an honest crash with everything committed loses nothing', async () => {
    const live = await record();
    await crash(live);
    const before = await fs.readFile(live.row.storagePath);
    await restart();
    expect(await fs.readFile(live.row.storagePath)).toEqual(before);
    expect((await verify(live.id)).body.status).toBe('intact');
  });
});

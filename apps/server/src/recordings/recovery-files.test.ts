import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { RecordingWriter, chunkBytes } from './import.js';

const sha = async (file: string) =>
  createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');

// Recovery at start (and every sweep) of recordings whose server died, against the real services.
describe.each(DATABASES)('recovery of a recording whose files cannot be read, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k' } })
    ).body.key;
    agentId = (
      await server.call<{ id: string }>('POST', '/api/agent/register', {
        body: { key, hostname: 'web-01', os: 1, version: '2.0.0' },
      })
    ).body.id;
  });
  afterAll(async () => server?.stop());

  /**
   * An open recording as a dead process left it: three chained chunks, committed to its row as
   * the recorder commits them, and bytes never chained (so never committed).
   */
  async function orphan(name: string) {
    const file = path.join(server.dataDir, 'recordings', `${name}.cast`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const id = crypto.randomUUID();
    const writer = await RecordingWriter.create(file, id, { width: 80, height: 24, startedOn: new Date() });
    for (let n = 0; n < 3; n += 1) await writer.append(chunkBytes([[n, 'o', `chunk ${n}\r\n`]]));
    const totals = await writer.close();
    await fs.appendFile(file, '[3,"o","never chained"]\n');
    await server.services.repositories.recordings.create({
      id,
      type: 'ssh',
      agentId,
      hostname: 'web-01',
      userId: null,
      userEmail: 'erin@example.test',
      definitionId: null,
      definitionName: 'web shell',
      storagePath: file,
      chainHead: totals.chainHead,
      chunks: totals.chunks,
      bytes: totals.bytes,
      headerSha256: totals.headerSha256,
      startedOn: new Date(Date.now() - 60_000),
    });
    return { id, file, totals };
  }

  const row = (id: string) => server.services.repositories.recordings.find(id);

  it.each(['chain', 'cast'] as const)(
    'leaves the files and the row alone when its %s file cannot be read, and recovers it once it can',
    async (broken) => {
      const { id, file, totals } = await orphan(`unreadable-${broken}`);
      const before = { cast: await sha(file), chain: await sha(`${file}.chain`) };
      // A read that fails (EISDIR here; EIO or EACCES alike): the file's place holds something unreadable.
      const target = broken === 'chain' ? `${file}.chain` : file;
      await fs.rename(target, `${target}.aside`);
      await fs.mkdir(target);
      const log = (server.services.recordings as unknown as { log: FastifyBaseLogger }).log;
      const errors = vi.spyOn(log, 'error');
      const calls: unknown[][] = [];
      try {
        await server.services.recordings.recoverOrphans(0);
        await server.services.recordings.recoverOrphans(0);
      } finally {
        calls.push(...errors.mock.calls);
        errors.mockRestore();
        await fs.rmdir(target);
        await fs.rename(`${target}.aside`, target);
      }
      // Nothing was cut, signed or closed; the failure was logged once, not once per sweep.
      expect({ cast: await sha(file), chain: await sha(`${file}.chain`) }).toEqual(before);
      await expect(fs.access(`${file}.manifest.json`)).rejects.toThrow(/ENOENT/);
      expect((await row(id))?.endedOn).toBeNull();
      const logged = calls.filter((c) => String(c[1]).includes('cannot be read'));
      expect(logged).toHaveLength(1);
      expect(logged[0]?.[0]).toMatchObject({ recording: id });

      // Readable again: the next sweep recovers it, cutting only the bytes never chained.
      await server.services.recordings.recoverOrphans(0);
      expect(await row(id)).toMatchObject({ endReason: 'recovered', bytes: totals.bytes, chunks: 3 });
      expect((await fs.stat(file)).size).toBe(totals.bytes);
      const verdict = await server.call<{ status: string }>('GET', `/api/recording/${id}/verify`, { token: admin });
      expect(verdict.body.status).toBe('intact');
    },
  );

  it('cuts a torn last chain line; a chain damaged before the committed chunk is signed as committed', async () => {
    const torn = await orphan('torn');
    await fs.appendFile(`${torn.file}.chain`, '4 2149580');
    const damaged = await orphan('damaged');
    const chain = await fs.readFile(`${damaged.file}.chain`, 'utf8');
    await fs.writeFile(`${damaged.file}.chain`, chain.replace(/^2 \d+/m, '2 7'));
    await server.services.recordings.recoverOrphans(0);
    const verify = (id: string) =>
      server.call<{ status: string; message: string }>('GET', `/api/recording/${id}/verify`, { token: admin });
    expect((await verify(torn.id)).body.status).toBe('intact');
    // The committed entry 3 is there: the uncommitted tail is cut, and the damage before it shows.
    expect((await fs.stat(damaged.file)).size).toBe(damaged.totals.bytes);
    expect(await row(damaged.id)).toMatchObject({ chunks: 3, bytes: damaged.totals.bytes });
    expect((await verify(damaged.id)).body).toMatchObject({ status: 'tampered', message: /chunk 2 starts at 7/ });
  });
});

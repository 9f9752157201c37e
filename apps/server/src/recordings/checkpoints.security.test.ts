import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import {
  type ChainEntry,
  type SignedManifest,
  chainLine,
  chainNext,
  chainStart,
  checkpointValid,
  parseChainLine,
  signCheckpoint,
  signManifest,
} from './chain.js';
import { CHECKPOINT_MS } from './progress.js';
import type { LiveRecording } from './recordings.service.js';
import { verifyRecording } from './verify.js';

// Checkpoints: while a session is live the server signs, every few seconds, where its chain is.
// A checkpoint whose signature does not hold, or that the chain does not pass through, is named.
describe.each(DATABASES)('signed checkpoints of live recordings, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    agentId = await server.services.repositories.agents.create({
      hostname: 'app-01',
      os: 1,
      version: '2.0.0',
      credentialHash: crypto.randomUUID(),
      config: null,
      registeredWith: crypto.randomUUID(),
    });
  });
  afterAll(async () => server?.stop());

  const start = () =>
    server.services.recordings.start({
      type: 'ssh',
      agentId,
      hostname: 'app-01',
      userId: null,
      userEmail: 'erin@example.test',
      definitionId: null as unknown as string,
      definitionName: 'app shell',
      width: 80,
      height: 24,
    });
  const write = async (live: LiveRecording, text: string) => {
    live.recorder.output(Buffer.from(text));
    await live.recorder.flush();
    await server.services.recordings.committed(live.id);
  };
  const keys = () => server.services.gatewayKeys.keys();
  const checkpoints = (id: string) => server.services.repositories.recordings.checkpoints(id);
  const verify = (id: string) =>
    server.call<{ status: string; message: string }>('GET', `/api/recording/${id}/verify`, { token: admin });

  it('are signed at least every 5 s while a session writes, and hold for the finished recording', async () => {
    const live = await start();
    const started = Date.now();
    for (let i = 0; Date.now() - started < CHECKPOINT_MS + 1500; i += 1) {
      await write(live, `tick ${i}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await server.services.recordings.finish(live, 'closed');
    const taken = await checkpoints(live.id);
    expect(taken.length).toBeGreaterThanOrEqual(1);
    const { signingPublicKey } = await keys();
    for (const c of taken) expect(checkpointValid(c, signingPublicKey)).toBe(true);
    const times = [started, ...taken.map((c) => Date.parse(c.at))];
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeLessThan(5000);
    const row = await server.services.repositories.recordings.find(live.id);
    expect(taken.at(-1)!.seq).toBeLessThanOrEqual(row!.chunks);
    expect((await verify(live.id)).body.status).toBe('intact');
  }, 20_000);

  it('takes none for a session that wrote nothing since the last one', async () => {
    const live = await start();
    await write(live, 'one line\r\n');
    await server.services.recordings.checkpoint();
    await server.services.recordings.checkpoint();
    expect((await checkpoints(live.id)).map((c) => c.seq)).toEqual([1]);
    await server.services.recordings.finish(live, 'closed');
  });

  /** A finished recording of three chunks with a checkpoint after each. */
  async function checkpointed(): Promise<{ live: LiveRecording; manifest: SignedManifest }> {
    const live = await start();
    for (const line of ['$ whoami\r\n', '$ cat /etc/shadow\r\n', '$ exit\r\n']) {
      await write(live, line);
      await server.services.recordings.checkpoint();
    }
    const manifest = (await server.services.recordings.finish(live, 'closed'))!;
    expect((await checkpoints(live.id)).map((c) => c.seq)).toEqual([1, 2, 3]);
    return { live, manifest };
  }

  it('names a checkpoint whose signature was forged', async () => {
    const { live } = await checkpointed();
    expect((await verify(live.id)).body.status).toBe('intact');
    // A statement changed under its signature, and one signed with another key.
    await server.services.database.query(
      'UPDATE recording_checkpoints SET bytes = bytes + 1 WHERE recording_id = $1 AND seq = 2',
      [live.id],
    );
    const [third] = (await checkpoints(live.id)).filter((c) => c.seq === 3);
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = signCheckpoint({ ...third!, chain_head: chainStart(live.id) }, other);
    await server.services.database.query(
      'UPDATE recording_checkpoints SET chain_head = $2, signature = $3 WHERE recording_id = $1 AND seq = 3',
      [live.id, forged.chain_head, forged.signature],
    );
    const verdict = (await verify(live.id)).body;
    expect(verdict.status).toBe('tampered');
    expect(verdict.message).toMatch(/the checkpoint at chunk 2 \(signed [^)]+\): its signature does not match/);
    expect(verdict.message).toMatch(/the checkpoint at chunk 3 \(signed [^)]+\): its signature does not match/);
    expect(verdict.message).not.toMatch(/chunk 1 /);
  });

  it('names a checkpoint the chain does not pass through: files rewritten and re-signed with the key', async () => {
    const { live, manifest } = await checkpointed();
    const file = live.row.storagePath;
    // Whoever holds the data folder and a copy of the key rewrites the first command, rebuilds the
    // chain and re-signs the manifest; the checkpoints signed while the session ran still stand.
    const cast = await fs.readFile(file);
    const entries = (await fs.readFile(`${file}.chain`, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => parseChainLine(l)!);
    const chunks = entries.map((e) => cast.subarray(e.offset, e.offset + e.length));
    chunks[0] = Buffer.from(chunks[0]!.toString().replace('whoami', 'uptime'));
    let link = chainStart(live.id);
    let offset = entries[0]!.offset;
    const rebuilt: ChainEntry[] = chunks.map((chunk, i) => {
      link = chainNext(link, chunk);
      const entry = { seq: i + 1, offset, length: chunk.length, link };
      offset += chunk.length;
      return entry;
    });
    await fs.writeFile(file, Buffer.concat([cast.subarray(0, entries[0]!.offset), ...chunks]));
    await fs.writeFile(`${file}.chain`, rebuilt.map(chainLine).join(''));
    const { public_key: _k, signature: _s, ...body } = manifest;
    const resigned = signManifest({ ...body, chain_head: link, bytes: offset }, (await keys()).signingKey);

    const result = await verifyRecording(file, resigned, (await keys()).signingPublicKey, {
      checkpoints: await checkpoints(live.id),
    });
    expect(result.intact).toBe(false);
    expect(result.problems).toEqual(
      [1, 2, 3].map((n): unknown =>
        expect.stringMatching(new RegExp(`checkpoint at chunk ${n} .*entry ${n} has another link`)),
      ),
    );

    // The same through the API, the row rewritten as well: the checkpoints still tell.
    await server.services.database.query(
      'UPDATE recordings SET manifest = $2, chain_head = $3, bytes = $4 WHERE id = $1',
      [live.id, JSON.stringify(resigned), link, offset],
    );
    const verdict = (await verify(live.id)).body;
    expect(verdict.status).toBe('tampered');
    expect(verdict.message).toMatch(/the checkpoint at chunk 2 \(signed [^)]+\): the chain’s entry 2 has another link/);
  });

  it('names a checkpoint past the end of the chain, another recording’s, and a row that disagrees', async () => {
    const { live, manifest } = await checkpointed();
    const other = await checkpointed();
    const taken = await checkpoints(live.id);
    const foreign = (await checkpoints(other.live.id))[0]!;
    const file = live.row.storagePath;
    const result = await verifyRecording(file, manifest, (await keys()).signingPublicKey, {
      checkpoints: [...taken, { ...taken[2]!, seq: 4 }, foreign],
      committed: { bytes: manifest.bytes + 10, chunks: 4, chainHead: manifest.chain_head },
    });
    expect(result.problems).toEqual([
      expect.stringMatching(/checkpoint at chunk 4 .*: its signature does not match/),
      expect.stringMatching(/checkpoint at chunk 1 .* is another recording’s/),
      'the database committed 4 chunks, the manifest says 3',
      `the database committed ${manifest.bytes + 10} bytes, the manifest says ${manifest.bytes}`,
    ]);
    // A checkpoint that does hold but lies beyond the chain (the last chunk cut off, chain and all).
    const chain = (await fs.readFile(`${file}.chain`, 'utf8')).split('\n').filter(Boolean);
    const last = parseChainLine(chain[2]!)!;
    await fs.writeFile(`${file}.chain`, `${chain.slice(0, 2).join('\n')}\n`);
    await fs.truncate(file, last.offset);
    const cut = await verifyRecording(file, manifest, (await keys()).signingPublicKey, { checkpoints: taken });
    expect(cut.problems).toContain(`the checkpoint at chunk 3 (signed ${taken[2]!.at}): the chain has only 2 chunks`);
  });
});

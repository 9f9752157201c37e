import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CastEvent } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BigRecording, MiB, peakGrowth, writeSparseRecording } from './big-recording-fixtures.js';
import { CastFile, MAX_EVENT_LINE, castTail, searchCast } from './cast-file.js';
import { chainLine, signManifest } from './chain.js';
import { RecordingWriter, chunkBytes } from './import.js';
import { cutUncommitted, inspectOrphan } from './recovery.js';
import { verifyRecording } from './verify.js';

const VERIFY_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/verify-recording.js');
const pair = generateKeyPairSync('ed25519');
const privateKey = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gh-streaming-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Flips one byte of a file in place. */
async function flip(file: string, at: number): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    byte[0] = byte[0]! ^ 1;
    await handle.write(byte, 0, 1, at);
  } finally {
    await handle.close();
  }
}

async function withCast<T>(file: string, use: (cast: CastFile) => Promise<T>): Promise<T> {
  const cast = await CastFile.open(file);
  try {
    return await use(cast);
  } finally {
    await cast.close();
  }
}

describe('a 200 MiB recording', () => {
  const CHUNKS = 400;
  let file: string;
  let manifest: Awaited<ReturnType<typeof signManifest>>;

  beforeAll(async () => {
    file = path.join(dir, 'large.cast');
    const id = crypto.randomUUID();
    const startedOn = new Date();
    const writer = await RecordingWriter.create(file, id, { width: 80, height: 24, startedOn });
    // 400 chunks of eight 64 KiB events: the second of chunk n holds n.0 to n.875.
    const text = `${'x'.repeat(78)}\r\n`.repeat(800);
    for (let n = 0; n < CHUNKS; n += 1) {
      const events: CastEvent[] = [];
      for (let j = 0; j < 8; j += 1)
        events.push([n + j / 8, 'o', n === CHUNKS - 1 && j === 7 ? 'the needle-42' : text]);
      await writer.append(chunkBytes(events));
    }
    const totals = await writer.close();
    manifest = signManifest(
      {
        recording_id: id,
        started_on: startedOn.toISOString(),
        ended_on: new Date().toISOString(),
        header_sha256: totals.headerSha256,
        bytes: totals.bytes,
        chunks: totals.chunks,
        chain_head: totals.chainHead,
        end_reason: 'client-closed',
      },
      privateKey,
    );
    expect(totals.bytes).toBeGreaterThan(200 * MiB);
  });

  it('verifies while memory grows by a small fraction of the file', async () => {
    const { result, arrayBuffers, rss } = await peakGrowth(() => verifyRecording(file, manifest, publicKey));
    expect(result).toEqual({ intact: true, problems: [] });
    // Reading the file whole cost its size (200 MiB) in buffers; streaming costs one 1 MiB buffer.
    expect(arrayBuffers).toBeLessThan(16 * MiB);
    expect(rss).toBeLessThan(64 * MiB);
  });

  it('seeks, searches and answers the live catch-up in bounded memory', async () => {
    const { result, arrayBuffers } = await peakGrowth(() =>
      withCast(file, async (cast) => ({
        seek: await cast.seek(300.5),
        search: await searchCast(cast, 'NEEDLE-42'),
        tail: await castTail(file, 2 * MiB),
      })),
    );
    expect(result.seek.t).toBe(300.5);
    const at = await fs.open(file, 'r');
    const { buffer } = await at.read(Buffer.alloc(8), 0, 8, result.seek.offset);
    await at.close();
    expect(buffer.toString()).toBe('[300.5,"');
    expect(result.search.hits).toEqual([
      {
        t: CHUNKS - 1 + 7 / 8,
        offset: expect.any(Number) as number,
        excerpt: 'the needle-42',
        match_start: 4,
        match_length: 9,
        clipped_start: true,
        clipped_end: false,
      },
    ]);
    // The catch-up: whole events of the last 2 MiB, ending with the last one, numbered by the last chunk.
    expect(result.tail.upto).toBe(CHUNKS);
    expect(result.tail.events.at(-1)).toEqual([CHUNKS - 1 + 7 / 8, 'o', 'the needle-42']);
    expect(result.tail.events.length).toBeGreaterThan(10);
    expect(JSON.stringify(result.tail.events).length).toBeLessThan(2 * MiB);
    expect(arrayBuffers).toBeLessThan(32 * MiB);
  });

  it('still finds a changed byte near the end, and caps the list of problems', async () => {
    const { size } = await fs.stat(file);
    await flip(file, size - 100);
    const one = await verifyRecording(file, manifest, publicKey);
    await flip(file, size - 100);
    expect(one).toEqual({ intact: false, problems: [`chunk ${CHUNKS} was changed`] });
    // A chain whose every link was rewritten: one problem per chunk, the first 50 listed.
    const chain = await fs.readFile(`${file}.chain`, 'utf8');
    await fs.writeFile(`${file}.chain`, chain.replace(/ [0-9a-f]{64}$/gm, ` ${'0'.repeat(64)}`));
    const many = await verifyRecording(file, manifest, publicKey);
    await fs.writeFile(`${file}.chain`, chain);
    expect(many.problems).toHaveLength(51);
    expect(many.problems.slice(0, 2)).toEqual(['chunk 1 was changed', 'chunk 2 was changed']);
    expect(many.problems.at(-1)).toBe(`and ${CHUNKS + 1 - 50} more problems`);
  });
});

describe('a recording over 2 GiB', () => {
  let big: BigRecording;
  const hole = 2 * 1024 * MiB + MiB;

  beforeAll(async () => {
    big = await writeSparseRecording(
      path.join(dir, 'over-2-gib.cast'),
      hole,
      [[0.5, 'o', 'before the flood\r\n']],
      [
        [100, 'o', 'after the flood\r\n'],
        [101.25, 'o', 'a needle past 2 GiB\r\n'],
      ],
      privateKey,
    );
    expect(big.afterOffset).toBeGreaterThan(2 ** 31);
  }, 120_000);

  it('verifies intact in bounded memory', async () => {
    const { result, arrayBuffers } = await peakGrowth(() => verifyRecording(big.file, big.manifest, publicKey));
    expect(result).toEqual({ intact: true, problems: [] });
    expect(arrayBuffers).toBeLessThan(16 * MiB);
  }, 120_000);

  it('is checked by npm run verify-recording (the built command), which finds a change past 2 GiB', async () => {
    const keyFile = path.join(dir, 'recording-signing.pub');
    await fs.writeFile(keyFile, publicKey);
    await flip(big.file, big.afterOffset + 3);
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [VERIFY_CLI, big.file, '--key', keyFile], (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
      );
    });
    await flip(big.file, big.afterOffset + 3);
    expect(run).toEqual({ code: 1, stdout: 'TAMPERED:\n  - chunk 3 was changed\n', stderr: '' });
  }, 120_000);

  it('seeks, searches and answers the catch-up past 2 GiB', async () => {
    const seek = await withCast(big.file, (cast) => cast.seek(100));
    expect(seek).toEqual({ offset: big.afterOffset, t: 100 });
    // The 2 GiB line is longer than any event: read through, held no further than MAX_EVENT_LINE.
    const { result: search, arrayBuffers } = await peakGrowth(() =>
      withCast(big.file, (cast) => searchCast(cast, 'needle')),
    );
    expect(arrayBuffers).toBeLessThan(2 * MAX_EVENT_LINE + 4 * MiB);
    expect(search.hits).toEqual([
      {
        t: 101.25,
        offset: expect.any(Number) as number,
        excerpt: 'a needle past 2 GiB',
        match_start: 2,
        match_length: 6,
        clipped_start: true,
        clipped_end: false,
      },
    ]);
    expect(search.hits[0]!.offset).toBeGreaterThan(2 ** 31);
    const tail = await castTail(big.file, 2 * MiB);
    expect(tail).toEqual({
      upto: 3,
      events: [
        [100, 'o', 'after the flood\r\n'],
        [101.25, 'o', 'a needle past 2 GiB\r\n'],
      ],
    });
  }, 60_000);

  it('recovers after a crash: bytes past the last committed chunk are cut, the rest verifies', async () => {
    await fs.appendFile(big.file, '[102,"o","never chained"]\n');
    await fs.appendFile(`${big.file}.chain`, '4 2149580'); // torn: its writer stopped mid-line
    const found = await inspectOrphan(big.file, big.id, {
      seq: 3,
      bytes: big.size,
      chainHead: big.manifest.chain_head,
      headerSha256: big.manifest.header_sha256,
    });
    expect(found).toMatchObject({
      agrees: true,
      castEnd: big.size,
      signed: { chunks: 3, chainHead: big.manifest.chain_head },
    });
    await cutUncommitted(big.file, found);
    expect((await fs.stat(big.file)).size).toBe(big.size);
    expect(await fs.readFile(`${big.file}.chain`, 'utf8')).toBe(big.entries.map(chainLine).join(''));
  }, 60_000);
});

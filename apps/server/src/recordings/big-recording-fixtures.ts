import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { CastEvent } from '@gatehouse/contracts';
import { type ChainEntry, type SignedManifest, chainLine, chainStart, nextLink, signManifest } from './chain.js';
import { chunkBytes, headerLine } from './import.js';

/** What a test recording holds and where its parts lie. */
export interface BigRecording {
  file: string;
  id: string;
  size: number;
  /** Where the events after the hole begin (past 2 GiB for a hole that big). */
  afterOffset: number;
  entries: ChainEntry[];
  manifest: SignedManifest;
}

/** Zeros hashed a MiB at a time (reading a hole costs nothing on disk). */
const ZEROS = Buffer.alloc(1024 * 1024);

/**
 * A valid recording (cast, chain, signed manifest) of any size written in a second or two: a few
 * events, then one event whose text is `holeBytes` of zeros left as a hole in a sparse file (no disk
 * used, though every byte is hashed), then `after` events, each chunk chained as the recorder does.
 */
export async function writeSparseRecording(
  file: string,
  holeBytes: number,
  before: CastEvent[],
  after: CastEvent[],
  signingKey: string,
): Promise<BigRecording> {
  const id = crypto.randomUUID();
  const head = Buffer.from(headerLine({ width: 80, height: 24, startedOn: new Date() }));
  const handle = await fs.open(file, 'wx', 0o640);
  const entries: ChainEntry[] = [];
  let link = chainStart(id);
  let offset = head.length;
  try {
    await handle.write(head, 0, head.length, 0);
    /** One chunk: `first`, then `hole` zero bytes left unwritten, then `rest`; hashed as it goes. */
    const chunk = async (first: Buffer, hole = 0, rest = Buffer.alloc(0)) => {
      const hash = nextLink(link).update(first);
      await handle.write(first, 0, first.length, offset);
      for (let left = hole; left > 0; left -= ZEROS.length)
        hash.update(ZEROS.subarray(0, Math.min(left, ZEROS.length)));
      const restAt = offset + first.length + hole;
      await handle.write(rest, 0, rest.length, restAt);
      link = hash.update(rest).digest('hex');
      const length = first.length + hole + rest.length;
      entries.push({ seq: entries.length + 1, offset, length, link });
      offset += length;
    };
    await chunk(chunkBytes(before));
    await chunk(Buffer.from('[1.5,"o","'), holeBytes, Buffer.from('"]\n'));
    const afterOffset = offset;
    await chunk(chunkBytes(after));
    await fs.writeFile(`${file}.chain`, entries.map(chainLine).join(''), { flag: 'wx', mode: 0o640 });
    const manifest = signManifest(
      {
        recording_id: id,
        started_on: new Date().toISOString(),
        ended_on: new Date().toISOString(),
        header_sha256: createHash('sha256').update(head).digest('hex'),
        bytes: offset,
        chunks: entries.length,
        chain_head: link,
        end_reason: 'client-closed',
      },
      signingKey,
    );
    await fs.writeFile(`${file}.manifest.json`, JSON.stringify(manifest, null, 2));
    return { file, id, size: offset, afterOffset, entries, manifest };
  } finally {
    await handle.close();
  }
}

/** Peak growth of the process's memory while `task` runs, sampled every few milliseconds. */
export async function peakGrowth<T>(task: () => Promise<T>): Promise<{ result: T; rss: number; arrayBuffers: number }> {
  const start = process.memoryUsage();
  let rss = 0;
  let arrayBuffers = 0;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss - start.rss);
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers - start.arrayBuffers);
  };
  const timer = setInterval(sample, 2);
  try {
    const result = await task();
    sample();
    return { result, rss, arrayBuffers };
  } finally {
    clearInterval(timer);
  }
}

export const MiB = 1024 * 1024;

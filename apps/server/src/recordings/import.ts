import { type KeyObject, createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { CastEvent } from '@gatehouse/contracts';
import { type ManifestBody, type SignedManifest, chainNext, chainStart, signManifest } from './chain.js';
import { FLUSH_MS } from './recorder.js';

/** The asciicast header of an imported recording; startedOn gives its timestamp. */
export interface ImportHeader {
  width: number;
  height: number;
  startedOn: Date;
  term?: string | undefined;
  title?: string | undefined;
}

/** How a finished recording ended; absent for one still live. */
export interface ImportEnd {
  endedOn: Date;
  reason: string;
}

/** What was written: the row's progress fields, and the manifest when the recording is finished. */
export interface WrittenRecording {
  bytes: number;
  chunks: number;
  chainHead: string;
  headerSha256: string;
  manifest?: SignedManifest;
}

/** The header line exactly as the Recorder writes it. */
export function headerLine(header: ImportHeader): string {
  return `${JSON.stringify({
    version: 2,
    width: header.width,
    height: header.height,
    timestamp: Math.floor(header.startedOn.getTime() / 1000),
    env: { TERM: header.term ?? 'xterm-256color', SHELL: '/bin/sh' },
    ...(header.title ? { title: header.title } : {}),
  })}\n`;
}

/**
 * Groups events (in time order) into the chunks the Recorder would have appended: its first
 * pending event arms a FLUSH_MS timer, and everything that arrives before it fires joins that chunk.
 */
export function chunksOf(events: readonly CastEvent[], flushMs = FLUSH_MS): CastEvent[][] {
  const chunks: CastEvent[][] = [];
  let current: CastEvent[] = [];
  let due = -Infinity;
  for (const event of events) {
    if (event[0] >= due) {
      current = [];
      chunks.push(current);
      due = event[0] + flushMs / 1000;
    }
    current.push(event);
  }
  return chunks;
}

/** An event's time as the Recorder rounds it: seconds with microseconds. */
export function castTime(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}

/**
 * Writes a recording with explicit event times (imports, demo data), in the very structure the
 * gateway's Recorder and RecordingsService produce: the asciicast v2 file, its `.chain` file of
 * `seq offset length link` lines, and, when `end` is given, the Ed25519-signed manifest.
 * Files are created exclusively: an existing recording is never overwritten.
 */
export async function writeRecording(
  file: string,
  id: string,
  header: ImportHeader,
  chunks: readonly (readonly CastEvent[])[],
  signingKey: string | KeyObject | undefined,
  end?: ImportEnd,
): Promise<WrittenRecording> {
  const head = headerLine(header);
  const parts: Buffer[] = [Buffer.from(head)];
  const chainLines: string[] = [];
  let offset = parts[0]?.length ?? 0;
  let link = chainStart(id);
  let seq = 0;
  for (const events of chunks) {
    if (events.length === 0) continue;
    const chunk = Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    seq += 1;
    link = chainNext(link, chunk);
    chainLines.push(`${seq} ${offset} ${chunk.length} ${link}\n`);
    parts.push(chunk);
    offset += chunk.length;
  }
  const headerSha256 = createHash('sha256').update(head).digest('hex');
  await fs.writeFile(file, Buffer.concat(parts), { mode: 0o640, flag: 'wx' });
  await fs.writeFile(`${file}.chain`, chainLines.join(''), { mode: 0o640, flag: 'wx' });
  const written: WrittenRecording = { bytes: offset, chunks: seq, chainHead: link, headerSha256 };
  if (!end) return written;
  if (!signingKey) throw new Error('a finished recording needs the signing key for its manifest');
  const body: ManifestBody = {
    recording_id: id,
    started_on: header.startedOn.toISOString(),
    ended_on: end.endedOn.toISOString(),
    header_sha256: headerSha256,
    bytes: offset,
    chunks: seq,
    chain_head: link,
    end_reason: end.reason,
  };
  const manifest = signManifest(body, signingKey);
  await fs.writeFile(`${file}.manifest.json`, JSON.stringify(manifest, null, 2));
  return { ...written, manifest };
}

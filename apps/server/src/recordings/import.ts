import { type KeyObject, createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { CastEvent } from '@gatehouse/contracts';
import { type ManifestBody, type SignedManifest, chainLine, chainNext, chainStart, signManifest } from './chain.js';
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

/** Bytes gathered before a write: few system calls for many small chunks, bounded memory for big ones. */
const WRITE_BUFFER = 1024 * 1024;

/**
 * A new recording written chunk by chunk, in the very structure the gateway's Recorder produces:
 * the asciicast v2 file and its `.chain` file of `seq offset length link` lines. Both files are
 * created exclusively (an existing recording is never overwritten) and written through a bounded
 * buffer, so a recording of any size can be written.
 */
export class RecordingWriter {
  private offset: number;
  private link: string;
  private seq = 0;
  private castParts: Buffer[] = [];
  private chainText = '';
  private pending = 0;

  private constructor(
    private readonly cast: FileHandle,
    private readonly chain: FileHandle,
    readonly id: string,
    readonly headerSha256: string,
    head: Buffer,
  ) {
    this.castParts.push(head);
    this.pending = head.length;
    this.offset = head.length;
    this.link = chainStart(id);
  }

  /** Creates both files (never over existing ones); the header is written with the first flush. */
  static async create(file: string, id: string, header: ImportHeader): Promise<RecordingWriter> {
    const head = Buffer.from(headerLine(header));
    const cast = await fs.open(file, 'wx', 0o600);
    const chain = await fs.open(`${file}.chain`, 'wx', 0o600).catch(async (error: unknown) => {
      await cast.close();
      await fs.rm(file, { force: true });
      throw error;
    });
    return new RecordingWriter(cast, chain, id, createHash('sha256').update(head).digest('hex'), head);
  }

  /** Appends one chunk's bytes (whole event lines) and its chain line; empty chunks are skipped. */
  async append(chunk: Buffer): Promise<void> {
    if (chunk.length === 0) return;
    this.seq += 1;
    this.link = chainNext(this.link, chunk);
    this.chainText += chainLine({ seq: this.seq, offset: this.offset, length: chunk.length, link: this.link });
    this.castParts.push(chunk);
    this.pending += chunk.length;
    this.offset += chunk.length;
    if (this.pending >= WRITE_BUFFER) await this.flush();
  }

  private async flush(): Promise<void> {
    // The cast's bytes first, then the lines that chain them, as the recorder orders its writes.
    if (this.castParts.length > 0) await this.cast.write(Buffer.concat(this.castParts, this.pending));
    if (this.chainText) await this.chain.write(this.chainText);
    this.castParts = [];
    this.chainText = '';
    this.pending = 0;
  }

  /** Writes what is buffered and closes both files; answers the totals. */
  async close(): Promise<WrittenRecording> {
    try {
      await this.flush();
    } finally {
      await Promise.all([this.cast.close(), this.chain.close()]);
    }
    return { bytes: this.offset, chunks: this.seq, chainHead: this.link, headerSha256: this.headerSha256 };
  }
}

/** The lines of one chunk's events, as the recorder encodes them. */
export function chunkBytes(events: readonly CastEvent[]): Buffer {
  return Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
}

/**
 * Writes a recording with explicit event times (imports, demo data), in the very structure the
 * gateway's Recorder and RecordingsService produce: the asciicast v2 file, its `.chain` file of
 * `seq offset length link` lines, and, when `end` is given, the Ed25519-signed manifest.
 * Chunks may come from an (async) iterable, so an import of any size is never held whole.
 * Files are created exclusively: an existing recording is never overwritten.
 */
export async function writeRecording(
  file: string,
  id: string,
  header: ImportHeader,
  chunks: Iterable<readonly CastEvent[]> | AsyncIterable<readonly CastEvent[]>,
  signingKey: string | KeyObject | undefined,
  end?: ImportEnd,
): Promise<WrittenRecording> {
  if (end && !signingKey) throw new Error('a finished recording needs the signing key for its manifest');
  const writer = await RecordingWriter.create(file, id, header);
  let written: WrittenRecording;
  try {
    for await (const events of chunks) await writer.append(chunkBytes(events));
  } finally {
    written = await writer.close();
  }
  if (!end || !signingKey) return written;
  const manifest = await writeManifest(
    file,
    {
      recording_id: id,
      started_on: header.startedOn.toISOString(),
      ended_on: end.endedOn.toISOString(),
      header_sha256: written.headerSha256,
      bytes: written.bytes,
      chunks: written.chunks,
      chain_head: written.chainHead,
      end_reason: end.reason,
    },
    signingKey,
  );
  return { ...written, manifest };
}

/** Signs a manifest and writes it beside the recording (`FILE.manifest.json`). */
export async function writeManifest(
  file: string,
  body: ManifestBody,
  signingKey: string | KeyObject,
): Promise<SignedManifest> {
  const manifest = signManifest(body, signingKey);
  await fs.writeFile(`${file}.manifest.json`, JSON.stringify(manifest, null, 2), { mode: 0o600 });
  return manifest;
}

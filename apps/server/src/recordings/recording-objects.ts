import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '../http/errors.js';
import type { FastifyBaseLogger } from 'fastify';
import { type ObjectStore, storageError } from './object-store.js';
import type { RecordingRow, RecordingsRepository } from './recordings.repository.js';
import { videoPathOf } from './video.service.js';

/** How often a live recording's new bytes go to object storage as segment objects. */
export const SEGMENT_MS = 2_000;
/** Every how many ticks ended recordings whose upload failed are retried. */
const SWEEP_TICKS = 5;
/** The most one segment object holds. */
const SEGMENT_MAX = 8 * 1024 * 1024;
/** Local copies of stored recordings kept for seeking and searching (bytes), least recently used out first. */
const CACHE_BYTES = 512 * 1024 * 1024;

/** The files of a recording, by the name of their object under its key. */
const PARTS = { cast: '', chain: '.chain', manifest: '.manifest.json' } as const;
type Part = keyof typeof PARTS;
/** The parts uploaded as segments while live. */
const LIVE_PARTS = ['cast', 'chain'] as const;

/** Where each part of a recording lies locally, from its cast file's path. */
function localOf(castPath: string, part: Part | 'video'): string {
  return part === 'video' ? videoPathOf(castPath) : `${castPath}${PARTS[part]}`;
}

interface Tracked {
  id: string;
  key: string;
  castPath: string;
  sent: Record<(typeof LIVE_PARTS)[number], number>;
  /** The upload in flight for it (or queued after the one in flight), if any. */
  busy?: Promise<void>;
  /** An upload is queued and not yet started. */
  queued?: boolean;
}

/** A segment's key: its part and the byte offset it starts at, zero-padded so keys sort by offset. */
function segmentKey(key: string, part: string, offset: number): string {
  return `${key}/segments/${part}/${String(offset).padStart(15, '0')}`;
}

/**
 * Recordings in S3-compatible object storage (issue 17, ADR 0008). The recorder's local spool is
 * unchanged; this uploads what it appends every SEGMENT_MS as segment objects, the final objects
 * once the manifest is signed (then removes the segments and the local files), and answers reads
 * of stored recordings: byte ranges straight from the object, whole files as a local copy.
 */
export class RecordingObjects {
  private readonly live = new Map<string, Tracked>();
  private readonly timer: NodeJS.Timeout;
  private readonly finalizing = new Map<string, Promise<boolean>>();
  private readonly cacheDir: string;
  private readonly cache = new Map<string, { file: string; size: number; used: number }>();
  private readonly fetching = new Map<string, Promise<string>>();
  private sweeping: Promise<void> | undefined;
  private ticks = 0;
  /** The last failure logged (by what failed), so an outage is logged once, not every tick. */
  private lastFailure = '';

  constructor(
    readonly store: ObjectStore,
    private readonly repository: RecordingsRepository,
    dataDir: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.cacheDir = path.join(dataDir, 'object-cache');
    fs.rmSync(this.cacheDir, { recursive: true, force: true });
    this.timer = setInterval(() => void this.tick(), SEGMENT_MS);
    this.timer.unref();
    // Said at start whether the bucket answers (recording goes on either way: the spool waits).
    void this.store.check().then(
      () => this.log.info({ bucket: store.bucket }, 'object storage: the bucket answers; recordings are stored there'),
      (error: unknown) =>
        this.log.warn(
          { bucket: store.bucket, why: storageError(error) },
          `object storage: the bucket ${store.bucket} does not answer (${storageError(error)}); recordings stay in the data folder until it does`,
        ),
    );
  }

  /** The key a new recording's objects go under. */
  keyFor(id: string): string {
    return this.store.recordingKey(id);
  }

  /** A live recording on this instance: its appended bytes go up every SEGMENT_MS. */
  track(id: string, key: string, castPath: string): void {
    this.live.set(id, { id, key, castPath, sent: { cast: 0, chain: 0 } });
  }

  /** The recording ended here: no more segments (waits for one in flight). */
  async untrack(id: string): Promise<void> {
    const tracked = this.live.get(id);
    this.live.delete(id);
    await tracked?.busy?.catch(() => undefined);
  }

  /** Uploads new bytes of every live recording, and retries ended ones not yet stored. */
  tick(): Promise<void> {
    for (const tracked of this.live.values()) {
      // One upload at a time per recording; a tick during one queues (at most) one more after it.
      if (tracked.queued) continue;
      const previous = tracked.busy ?? Promise.resolve();
      tracked.queued = true;
      const next: Promise<void> = previous
        .then(() => {
          tracked.queued = false;
          return this.upload(tracked);
        })
        .then(() => this.recovered('segments'))
        .catch((error: unknown) => this.failed('segments', error))
        .finally(() => {
          if (tracked.busy === next) tracked.busy = undefined;
        });
      tracked.busy = next;
    }
    // Ended recordings not yet stored are looked for every SWEEP_TICKS ticks.
    if (this.ticks++ % SWEEP_TICKS === 0)
      this.sweeping ??= this.sweep().finally(() => {
        this.sweeping = undefined;
      });
    return Promise.all([...[...this.live.values()].map((t) => t.busy), this.sweeping]).then(() => undefined);
  }

  private async upload(tracked: Tracked): Promise<void> {
    for (const part of LIVE_PARTS) {
      const file = localOf(tracked.castPath, part);
      const handle = await fsp.open(file, 'r').catch(() => undefined);
      if (!handle) continue;
      try {
        const { size } = await handle.stat();
        while (tracked.sent[part] < size && this.live.has(tracked.id)) {
          const length = Math.min(SEGMENT_MAX, size - tracked.sent[part]);
          const buffer = Buffer.alloc(length);
          const { bytesRead } = await handle.read(buffer, 0, length, tracked.sent[part]);
          if (bytesRead === 0) break;
          await this.store.put(segmentKey(tracked.key, part, tracked.sent[part]), buffer.subarray(0, bytesRead));
          tracked.sent[part] += bytesRead;
        }
      } finally {
        await handle.close();
      }
    }
  }

  private failed(what: string, error: unknown): void {
    const why = storageError(error);
    const level = this.lastFailure === `${what}:${why}` ? 'debug' : 'warn';
    this.lastFailure = `${what}:${why}`;
    this.log[level](
      { why },
      `object storage: ${what} not uploaded (${why}); the local files stay and the upload is retried`,
    );
  }

  private recovered(what: string): void {
    if (this.lastFailure.startsWith(`${what}:`)) {
      this.log.info(`object storage: ${what} uploaded again`);
      this.lastFailure = '';
    }
  }

  /**
   * An ended recording's final objects: its files as they are now (cast, chain, manifest), then
   * the row says 's3', then its segments and local files go. Answers whether it is stored; on
   * failure the local files stay and the sweep tries again.
   */
  finalize(id: string): Promise<boolean> {
    let running = this.finalizing.get(id);
    if (!running) {
      running = this.store1(id)
        .catch((error: unknown) => {
          this.failed('final objects', error);
          return false;
        })
        .finally(() => this.finalizing.delete(id));
      this.finalizing.set(id, running);
    }
    return running;
  }

  private async store1(id: string): Promise<boolean> {
    await this.untrack(id);
    const row = await this.repository.find(id);
    if (!row?.objectKey || !row.endedOn) return false;
    const local = row.storagePath;
    if (row.storage !== 's3') {
      if (!fs.existsSync(local)) return false; // another instance's files
      for (const part of Object.keys(PARTS) as Part[]) {
        const file = localOf(local, part);
        if (fs.existsSync(file)) await this.store.putFile(`${row.objectKey}/${part}`, file);
      }
      const video = localOf(local, 'video');
      if (row.videoFinal && fs.existsSync(video)) await this.store.putFile(`${row.objectKey}/video`, video);
      await this.repository.stored(id);
      this.recovered('final objects');
    }
    for (const part of LIVE_PARTS) await this.store.removeAll(`${row.objectKey}/segments/${part}/`);
    // A video still arriving stays local until it is final (video.service.ts stores it then).
    const parts: (Part | 'video')[] = [...(Object.keys(PARTS) as Part[])];
    if (row.videoFinal || !row.hasVideo) parts.push('video');
    await Promise.all(parts.map((part) => fsp.rm(localOf(local, part), { force: true })));
    return true;
  }

  /** Ended recordings whose final objects are missing and whose files are on this instance. */
  private async sweep(): Promise<void> {
    try {
      for (const row of await this.repository.awaitingUpload(200)) {
        if (this.live.has(row.id) || !fs.existsSync(row.storagePath)) continue;
        await this.finalize(row.id);
      }
    } catch (error) {
      this.failed('final objects', error);
    }
  }

  /** Whether a row's files are read from object storage. */
  stored(row: RecordingRow): row is RecordingRow & { objectKey: string } {
    return row.storage === 's3' && row.objectKey !== null;
  }

  /** A stored part's size (the object's, which may differ from the row's when it was changed). */
  async size(row: RecordingRow & { objectKey: string }, part: Part | 'video'): Promise<number | undefined> {
    return this.store.size(`${row.objectKey}/${part}`);
  }

  /** Bytes start..end of a stored part. */
  read(row: RecordingRow & { objectKey: string }, part: Part | 'video', start: number, end: number): Promise<Readable> {
    return this.store.read(`${row.objectKey}/${part}`, { start, end });
  }

  /**
   * A fresh local copy of a stored recording's cast and chain (and manifest, video when asked),
   * named as the recorder names them, for whole-file readers (verify, bundle, text index); removed
   * after `use` settles.
   */
  async withCopy<T>(row: RecordingRow & { objectKey: string }, use: (castPath: string) => Promise<T>): Promise<T> {
    const copy = await this.copy(row);
    try {
      return await use(copy.castPath);
    } finally {
      await copy.release();
    }
  }

  /** A fresh local copy (see withCopy) that stays until `release` is called. */
  async copy(
    row: RecordingRow & { objectKey: string },
    withVideo = false,
  ): Promise<{ castPath: string; release: () => Promise<void> }> {
    const dir = path.join(this.cacheDir, `copy-${randomUUID()}`);
    const castPath = path.join(dir, `${row.id}.cast`);
    const release = () => fsp.rm(dir, { recursive: true, force: true });
    try {
      const parts: (Part | 'video')[] = ['cast', 'chain', 'manifest'];
      if (withVideo) parts.push('video');
      for (const part of parts) {
        if (part === 'video') {
          // The joined object, or its pieces when they were never joined.
          if (row.videoBytes > 0)
            await pipeline(
              await this.readVideo(row.objectKey, 0, row.videoBytes - 1),
              fs.createWriteStream(localOf(castPath, 'video'), { mode: 0o600 }),
            );
          continue;
        }
        await this.store.download(`${row.objectKey}/${part}`, localOf(castPath, part)).catch((error: unknown) => {
          if ((error as { name?: string }).name !== 'NoSuchKey') throw error; // a missing part reads as missing
        });
      }
    } catch (error) {
      await release();
      throw error;
    }
    return { castPath, release };
  }

  /**
   * A recording's cast file for a whole-file reader, wherever it is: its local file, or a fresh
   * copy of its objects (also when its files went to object storage a moment ago).
   */
  async local(id: string): Promise<{ castPath: string; release: () => Promise<void> } | undefined> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const row = await this.repository.find(id);
      if (!row) return undefined;
      if (this.stored(row)) return this.copy(row);
      if (fs.existsSync(row.storagePath)) return { castPath: row.storagePath, release: async () => undefined };
      await this.finalizing.get(id); // being stored right now: read the objects once it is
    }
    return undefined;
  }

  /**
   * A cached local copy of a stored recording's cast and chain, for seeking and searching in the
   * player; at most CACHE_BYTES of them are kept, least recently used out first.
   */
  async cached(row: RecordingRow & { objectKey: string }): Promise<string> {
    const hit = this.cache.get(row.id);
    if (hit && fs.existsSync(hit.file)) {
      hit.used = Date.now();
      return hit.file;
    }
    let fetching = this.fetching.get(row.id);
    if (!fetching) {
      fetching = this.fetch(row).finally(() => this.fetching.delete(row.id));
      this.fetching.set(row.id, fetching);
    }
    return fetching;
  }

  private async fetch(row: RecordingRow & { objectKey: string }): Promise<string> {
    const dir = path.join(this.cacheDir, 'cache', row.id);
    const partial = path.join(this.cacheDir, `partial-${randomUUID()}`);
    const cast = path.join(partial, `${row.id}.cast`);
    await this.store.download(`${row.objectKey}/cast`, cast);
    await this.store.download(`${row.objectKey}/chain`, localOf(cast, 'chain'));
    const size = (await fsp.stat(cast)).size + (await fsp.stat(localOf(cast, 'chain'))).size;
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
    await fsp.rename(partial, dir);
    const file = path.join(dir, `${row.id}.cast`);
    this.cache.set(row.id, { file, size, used: Date.now() });
    await this.evict();
    return file;
  }

  private async evict(): Promise<void> {
    let total = [...this.cache.values()].reduce((n, e) => n + e.size, 0);
    const oldest = [...this.cache.entries()].sort((a, b) => a[1].used - b[1].used);
    // The newest stays even when it alone is over the cap. Open files read on after removal.
    for (const [id, entry] of oldest.slice(0, -1)) {
      if (total <= CACHE_BYTES) break;
      this.cache.delete(id);
      total -= entry.size;
      await fsp.rm(path.dirname(entry.file), { recursive: true, force: true });
    }
  }

  /**
   * A dead instance's live recording: its cast and chain rebuilt from the segments in object
   * storage into `castPath`, each up to the first gap. Answers false when there are none.
   */
  async restore(row: RecordingRow, castPath: string): Promise<boolean> {
    if (!row.objectKey) return false;
    const segments = await this.store.list(`${row.objectKey}/segments/`);
    if (segments.length === 0) return false;
    await fsp.mkdir(path.dirname(castPath), { recursive: true, mode: 0o700 });
    for (const part of LIVE_PARTS) {
      const file = localOf(castPath, part);
      const out = await fsp.open(file, 'w', 0o600);
      try {
        let length = 0;
        for (const segment of segments.filter((s) => s.key.includes(`/segments/${part}/`))) {
          const offset = Number(segment.key.slice(segment.key.lastIndexOf('/') + 1));
          if (offset !== length) break; // a gap: what follows it cannot be placed
          for await (const chunk of await this.store.read(segment.key)) {
            await out.write(chunk as Buffer);
            length += (chunk as Buffer).length;
          }
        }
      } finally {
        await out.close();
      }
    }
    return true;
  }

  /** One piece of an RDP video, stored at its offset (video.service.ts, under the row's lock). */
  async putVideoPiece(key: string, offset: number, data: Buffer): Promise<void> {
    try {
      await this.store.put(segmentKey(key, 'video', offset), data);
    } catch (error) {
      throw new HttpError(503, `The object storage could not take the video piece (${storageError(error)}).`);
    }
  }

  /** A video's pieces in order (up to the first gap) with their offsets. */
  private async videoPieces(key: string): Promise<{ key: string; offset: number; size: number }[]> {
    const pieces: { key: string; offset: number; size: number }[] = [];
    let next = 0;
    for (const o of await this.store.list(`${key}/segments/video/`)) {
      const offset = Number(o.key.slice(o.key.lastIndexOf('/') + 1));
      if (offset !== next) break;
      pieces.push({ key: o.key, offset, size: o.size });
      next += o.size;
    }
    return pieces;
  }

  /** The final video's pieces joined into one object (multipart for large ones), then the pieces removed. */
  async joinVideo(key: string): Promise<void> {
    try {
      const pieces = await this.videoPieces(key);
      const store = this.store;
      async function* joined(): AsyncGenerator<Buffer> {
        for (const piece of pieces) for await (const chunk of await store.read(piece.key)) yield chunk as Buffer;
      }
      await this.store.putStream(`${key}/video`, Readable.from(joined()));
      await this.store.remove(pieces.map((p) => p.key));
    } catch (error) {
      // The pieces stay and are read as they are; logged, never lost.
      this.failed('video', error);
    }
  }

  /** Bytes start..end of a recording's video: from its final object, or across its pieces while it grows. */
  async readVideo(key: string, start: number, end: number): Promise<Readable> {
    if ((await this.store.size(`${key}/video`)) !== undefined) return this.store.read(`${key}/video`, { start, end });
    const pieces = (await this.videoPieces(key)).filter((p) => p.offset <= end && p.offset + p.size > start);
    const store = this.store;
    async function* ranged(): AsyncGenerator<Buffer> {
      for (const p of pieces) {
        const from = Math.max(start, p.offset) - p.offset;
        const to = Math.min(end, p.offset + p.size - 1) - p.offset;
        for await (const chunk of await store.read(p.key, { start: from, end: to })) yield chunk as Buffer;
      }
    }
    return Readable.from(ranged());
  }

  /** Deletes a recording's objects (retention). */
  async remove(objectKey: string): Promise<void> {
    await this.store.removeAll(`${objectKey}/`);
  }

  close(): void {
    clearInterval(this.timer);
    this.store.close();
  }
}

import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Database, RawSql } from '../db/client.js';
import {
  type SignedVideoManifest,
  type VideoPiece,
  signVideoManifest,
  videoChainNext,
  videoChainStart,
  videoPieceLine,
} from './chain.js';
import { HttpError } from '../http/errors.js';
import type { RecordingRow } from './recordings.repository.js';
import type { RecordingObjects } from './recording-objects.js';

/** Most bytes one upload may carry (the agent sends about a second of video at a time). */
export const MAX_VIDEO_PIECE_BYTES = 8 * 1024 * 1024;
/** A capture that sent nothing for this long after its session ended is no longer live. */
const LIVE_GRACE_MS = 30_000;

/** Where a recording's video lives: beside its asciicast file, as `<id>.mp4`. */
export function videoPathOf(storagePath: string): string {
  return `${storagePath.replace(/\.cast$/, '')}.mp4`;
}

/** The signed video manifest beside a local video (written when it is final or cut). */
export function videoManifestPathOf(storagePath: string): string {
  return `${videoPathOf(storagePath)}.manifest.json`;
}

/** The piece list beside a local video: one `seq offset length sha256 chain` line per piece. */
export function videoChainPathOf(storagePath: string): string {
  return `${videoPathOf(storagePath)}.chain`;
}

/** What a player needs to know before it fetches the video. */
export function playbackOf(row: RecordingRow, now = Date.now()) {
  const available = row.hasVideo && row.videoBytes > 0;
  const fresh = row.endedOn === null || (row.videoAt !== null && now - row.videoAt.getTime() < LIVE_GRACE_MS);
  return {
    available,
    video_bytes: row.videoBytes,
    content_type: available ? 'video/mp4' : null,
    live: available && !row.videoFinal && fresh,
  };
}

interface LockedRow {
  agent_id: string | null;
  type: string;
  storage_path: string;
  object_key: string | null;
  video_bytes: string | number;
  video_final: boolean;
  video_pieces: number;
  video_chain_head: string | null;
  video_manifest: SignedVideoManifest | null;
}

const LOCKED_COLUMNS =
  'agent_id, type, storage_path, object_key, video_bytes, video_final, video_pieces, video_chain_head, video_manifest';

/** Who may add to a locked recording's video: throws when the caller may not. */
type Authorize = (row: LockedRow) => void;

/**
 * RDP video uploads. The row's video_bytes is the committed length: a piece is appended only at
 * that offset, under the row's lock, so concurrent or repeated uploads (a retry after a lost
 * answer, another server instance) can neither interleave nor duplicate bytes. Each piece's
 * offset, length, SHA-256 and chain link (chain.ts videoChainNext) are committed with it
 * (recording_video_pieces, migration 0025); when the video is final, or cut by the sweep, the
 * video manifest is signed with the recording signing key (docs/SECURITY.md).
 */
export class VideoService {
  /**
   * How long an ended session's unfinished video waits for an upload before the sweep signs it as
   * cut (default VIDEO_CUT_GRACE_MS; StartOptions.sweep.videoCutGraceMs shortens it in tests only).
   */
  cutGraceMs = VIDEO_CUT_GRACE_MS;

  constructor(
    private readonly database: Database,
    /** Object storage, when configured: pieces go there as segments, joined into one object when final. */
    private readonly objects: RecordingObjects | undefined,
    /** The installation's recording signing key (PKCS#8 PEM), as manifests are signed with. */
    private readonly signingKey: () => Promise<string>,
  ) {}

  /** Appends a piece from the recording's own agent; answers the bytes stored. */
  async append(input: { agentId: string; id: string; offset: number; data: Buffer; final: boolean }): Promise<number> {
    const { agentId, id, offset, data, final } = input;
    return this.appendPiece(id, offset, data, final, (row) => {
      if (row.agent_id !== agentId) throw new HttpError(403, 'This session runs through another agent.');
    });
  }

  /**
   * Appends a piece of the gateway's own capture of a desktop it holds (desktop/desktop-video.ts):
   * server code, no agent involved; the same digests, chain and signature as an agent's upload.
   */
  async appendFromGateway(input: { id: string; offset: number; data: Buffer; final: boolean }): Promise<number> {
    return this.appendPiece(input.id, input.offset, input.data, input.final, () => undefined);
  }

  /**
   * Appends a piece under the row's lock after `authorize` accepted the caller: the bytes at the
   * committed offset, the piece's digest row and the row's totals in one transaction; the signed
   * video manifest in the same one when `final`. Every upload path goes through here.
   */
  private async appendPiece(
    id: string,
    offset: number,
    data: Buffer,
    final: boolean,
    authorize: Authorize,
  ): Promise<number> {
    let joinKey: string | undefined;
    const bytes = await this.database.transaction(async (tx) => {
      const [row] = await tx.query<LockedRow>(`SELECT ${LOCKED_COLUMNS} FROM recordings WHERE id = $1 FOR UPDATE`, [
        id,
      ]);
      if (!row) throw new HttpError(404, 'There is no session with that id.');
      authorize(row);
      if (row.type !== 'rdp') throw new HttpError(400, `Only rdp sessions carry video; this one is ${row.type}.`);
      const stored = Number(row.video_bytes);
      // A retry of a piece already stored (its answer was lost): acknowledge, store nothing.
      if (offset + data.length <= stored && (data.length > 0 || row.video_final)) return stored;
      if (row.video_final) throw new HttpError(409, `The video of this session is complete (${stored} bytes).`);
      if (offset !== stored) {
        throw new HttpError(409, `offset must be ${stored}, the bytes stored so far (got ${offset}).`);
      }
      if (data.length > 0) {
        // In object storage, each piece is a segment object at its offset: any instance may take it.
        if (this.objects && row.object_key) await this.objects.putVideoPiece(row.object_key, stored, data);
        else await writeAt(videoPathOf(row.storage_path), stored, data);
      }
      const digests = await commitPiece(tx, id, row, stored, data);
      if (final && this.objects && row.object_key) joinKey = row.object_key;
      const bytes = stored + data.length;
      await tx.query(
        'UPDATE recordings SET video_bytes = $2::bigint, has_video = has_video OR $2::bigint > 0, video_final = $3, ' +
          'video_at = now(), video_pieces = $4, video_chain_head = $5 WHERE id = $1',
        [id, bytes, final, digests.pieces, digests.head],
      );
      if (final && digests.head !== null)
        await this.seal(tx, id, row, { bytes, pieces: digests.pieces, head: digests.head, end: 'final' });
      return bytes;
    });
    // The pieces become one object (the segments stay readable until it is there).
    if (joinKey) await this.objects?.joinVideo(joinKey);
    return bytes;
  }

  /** The committed pieces of a recording's video, in order. */
  async pieces(id: string): Promise<VideoPiece[]> {
    return readPieces(this.database, id);
  }

  /**
   * Signs the videos whose upload never said final (the agent or the gateway stopped): once the
   * session has ended and nothing arrived for `graceMs`, what was committed is signed with end
   * 'cut' and the video is closed (a late upload is refused). Answers how many were signed.
   * Run by the recovery sweep (RecordingsService.recoverOrphans) on every instance; the row lock
   * keeps two instances from signing one video twice.
   */
  async sealAbandoned(graceMs = this.cutGraceMs): Promise<number> {
    const candidates = await this.database.query<{ id: string }>(
      `SELECT id FROM recordings
        WHERE video_bytes > 0 AND video_manifest IS NULL AND video_chain_head IS NOT NULL AND NOT video_final
          AND ended_on IS NOT NULL AND ended_on < now() - ($1::bigint * interval '1 millisecond')
          AND coalesce(video_at, ended_on) < now() - ($1::bigint * interval '1 millisecond')
        ORDER BY ended_on LIMIT 100`,
      [graceMs],
    );
    let sealed = 0;
    for (const { id } of candidates) {
      const joinKey = await this.database.transaction(async (tx) => {
        const [row] = await tx.query<LockedRow>(`SELECT ${LOCKED_COLUMNS} FROM recordings WHERE id = $1 FOR UPDATE`, [
          id,
        ]);
        if (!row || row.video_final || row.video_manifest || row.video_chain_head === null) return undefined;
        const bytes = Number(row.video_bytes);
        // Bytes an interrupted write left past the committed length were never committed: cut.
        if (!(this.objects && row.object_key)) await cutAt(videoPathOf(row.storage_path), bytes);
        // The capture never said it stopped (its agent died): it does not read 'filming' forever.
        await tx.query(
          `UPDATE recordings SET video_final = true,
             video_note = CASE WHEN video_state IN ('waiting', 'filming') THEN $2 ELSE video_note END,
             video_state = CASE WHEN video_state IN ('waiting', 'filming') THEN 'stopped' ELSE video_state END
           WHERE id = $1`,
          [id, CUT_NOTE],
        );
        await this.seal(tx, id, row, { bytes, pieces: row.video_pieces, head: row.video_chain_head, end: 'cut' });
        sealed += 1;
        return (this.objects && row.object_key) ?? undefined;
      });
      if (typeof joinKey === 'string') await this.objects?.joinVideo(joinKey);
    }
    return sealed;
  }

  /**
   * Signs the video manifest and stores it on the row (inside the caller's transaction); a local
   * video also gets it beside it (`<id>.mp4.manifest.json`) with its piece list (`<id>.mp4.chain`)
   * for `npm run verify-recording`, both owner-only.
   */
  private async seal(
    tx: RawSql,
    id: string,
    row: LockedRow,
    totals: { bytes: number; pieces: number; head: string; end: 'final' | 'cut' },
  ): Promise<SignedVideoManifest> {
    const manifest = signVideoManifest(
      { recording_id: id, bytes: totals.bytes, pieces: totals.pieces, chain_head: totals.head, end: totals.end },
      await this.signingKey(),
    );
    await tx.query('UPDATE recordings SET video_manifest = $2::jsonb WHERE id = $1', [id, JSON.stringify(manifest)]);
    if (!(this.objects && row.object_key)) {
      const video = videoPathOf(row.storage_path);
      const pieces = await readPieces(tx, id);
      await writePrivate(`${video}.chain`, pieces.map(videoPieceLine).join(''));
      await writePrivate(`${video}.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    return manifest;
  }
}

/** The capture's note once its video is signed as cut (the agent never reported that it stopped). */
export const CUT_NOTE =
  'the capture never reported that it stopped (its agent or its connection went away): what arrived was signed as cut';

/** An unfinished video of an ended session is signed as cut after this long without an upload. */
export const VIDEO_CUT_GRACE_MS = 10 * 60_000;

/**
 * The digest row of a piece just stored at `offset` (none for an empty one, nor for a video
 * stored before migration 0025, whose first bytes no chain covers): answers the new totals.
 */
async function commitPiece(
  tx: RawSql,
  id: string,
  row: LockedRow,
  offset: number,
  data: Buffer,
): Promise<{ pieces: number; head: string | null }> {
  const earlier = { pieces: row.video_pieces, head: row.video_chain_head };
  if (data.length === 0 || (earlier.head === null && offset > 0)) return earlier;
  const sha256 = createHash('sha256').update(data).digest('hex');
  const seq = earlier.pieces + 1;
  const chain = videoChainNext(earlier.head ?? videoChainStart(id), offset, data.length, sha256);
  await tx.query(
    'INSERT INTO recording_video_pieces (recording_id, seq, byte_offset, length, sha256, chain) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, seq, offset, data.length, sha256, chain],
  );
  return { pieces: seq, head: chain };
}

async function readPieces(sql: RawSql, id: string): Promise<VideoPiece[]> {
  const rows = await sql.query<{
    seq: number;
    byte_offset: string | number;
    length: number;
    sha256: string;
    chain: string;
  }>(
    'SELECT seq, byte_offset, length, sha256, chain FROM recording_video_pieces WHERE recording_id = $1 ORDER BY seq',
    [id],
  );
  return rows.map((r) => ({
    seq: r.seq,
    offset: Number(r.byte_offset),
    length: r.length,
    sha256: r.sha256,
    chain: r.chain,
  }));
}

/** Writes a small file owner-only (0600), also when it was there before with another mode. */
async function writePrivate(file: string, text: string): Promise<void> {
  await fs.writeFile(file, text, { mode: 0o600 });
  await fs.chmod(file, 0o600);
}

/** Cuts a local video back to its committed length (nothing when it is gone or shorter). */
async function cutAt(file: string, bytes: number): Promise<void> {
  const size = (await fs.stat(file).catch(() => undefined))?.size;
  if (size !== undefined && size > bytes) await fs.truncate(file, bytes);
}

/** Writes at the committed offset, cutting what an interrupted write left past it; synced before commit. */
async function writeAt(file: string, offset: number, data: Buffer): Promise<void> {
  const handle = await fs.open(file, 'r+').catch((error: NodeJS.ErrnoException) => {
    // Owner-only from its first byte: the video is evidence, and may show what was on the screen.
    if (error.code === 'ENOENT' && offset === 0) return fs.open(file, 'w+', 0o600);
    if (error.code === 'ENOENT') throw new HttpError(409, 'The stored video is missing on the server; it cannot grow.');
    throw error;
  });
  try {
    await handle.truncate(offset);
    await handle.write(data, 0, data.length, offset);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

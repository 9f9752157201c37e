import fs from 'node:fs/promises';
import type { Database } from '../db/client.js';
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
}

/**
 * RDP video uploads. The row's video_bytes is the committed length: a piece is appended only at
 * that offset, under the row's lock, so concurrent or repeated uploads (a retry after a lost
 * answer, another server instance) can neither interleave nor duplicate bytes.
 */
export class VideoService {
  constructor(
    private readonly database: Database,
    /** Object storage, when configured: pieces go there as segments, joined into one object when final. */
    private readonly objects?: RecordingObjects,
  ) {}

  /** Appends a piece from the recording's own agent; answers the bytes stored. */
  async append(input: { agentId: string; id: string; offset: number; data: Buffer; final: boolean }): Promise<number> {
    const { agentId, id, offset, data, final } = input;
    let joinKey: string | undefined;
    const bytes = await this.database.transaction(async (tx) => {
      const [row] = await tx.query<LockedRow>(
        'SELECT agent_id, type, storage_path, object_key, video_bytes, video_final FROM recordings WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (!row) throw new HttpError(404, 'There is no session with that id.');
      if (row.agent_id !== agentId) throw new HttpError(403, 'This session runs through another agent.');
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
      if (final && this.objects && row.object_key) joinKey = row.object_key;
      const bytes = stored + data.length;
      await tx.query(
        'UPDATE recordings SET video_bytes = $2::bigint, has_video = has_video OR $2::bigint > 0, video_final = $3, video_at = now() WHERE id = $1',
        [id, bytes, final],
      );
      return bytes;
    });
    // The pieces become one object (the segments stay readable until it is there).
    if (joinKey) await this.objects?.joinVideo(joinKey);
    return bytes;
  }
}

/** Writes at the committed offset, cutting what an interrupted write left past it; synced before commit. */
async function writeAt(file: string, offset: number, data: Buffer): Promise<void> {
  const handle = await fs.open(file, 'r+').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' && offset === 0) return fs.open(file, 'w+');
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

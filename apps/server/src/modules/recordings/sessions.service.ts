import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { CastEvent, QueryOf, Recording, RecordingDetail, RecordingIntegrity, Routes } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { CastFile, castTail, completeSize, searchCast } from '../../recordings/cast-file.js';
import type { SignedManifest, SignedVideoManifest } from '../../recordings/chain.js';
import type {
  KeysetPosition,
  RecordingFilter,
  RecordingRow,
  RecordingSort,
  RecordingsRepository,
} from '../../recordings/recordings.repository.js';
import { ScanQueue } from '../../recordings/scan-queue.js';
import { type KnownSigningKey, manifestKey } from '../../recordings/signing-keys.js';
import { verifyRecording } from '../../recordings/verify.js';
import { type VideoVerification, verifyVideo } from '../../recordings/video-verify.js';
import { videoPathOf } from '../../recordings/video.service.js';
import { storageError } from '../../recordings/object-store.js';

import type { RecordingsService } from '../../recordings/recordings.service.js';
import type { Principal } from '../auth/principal.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import type { DecisionContext } from '../policy/uses.js';
import { holdOf } from './legal-hold.service.js';

/** Most of a recording's tail a watcher gets on attaching: a terminal's 5,000 lines of scrollback and more. */
export const REPLAY_BYTES = 2 * 1024 * 1024;

/** How far past a video's committed length a check reads from object storage (to find bytes added there). */
const VIDEO_SLACK_BYTES = 64 * 1024 * 1024;

/** A recording row as the session list shows it (also search across recordings). */
export function toRecording(row: RecordingRow): z.infer<typeof Recording> {
  return {
    id: row.id,
    host: { id: row.agentId, hostname: row.hostname },
    user: { email: row.userEmail },
    started_on: row.startedOn.toISOString(),
    ended_on: row.endedOn?.toISOString() ?? null,
    has_video: row.hasVideo,
    type: row.type as 'ssh',
    tunnel: row.definitionName,
    end_reason: row.endReason,
    terminated_by: row.terminatedBy,
    forwards: row.forwards,
    legal_hold: holdOf(row),
    kind: (row.kind as z.infer<typeof Recording>['kind']) ?? null,
    command: row.command,
    video_state: (row.videoState as z.infer<typeof Recording>['video_state']) ?? null,
    video_note: row.videoNote ?? null,
  };
}

type ListQuery = QueryOf<Routes['listRecordings']>;

/** A query's date (UTC when it has no zone), or a 400 naming the parameter. */
export function parseDate(text: string | undefined, name: string): Date | undefined {
  if (!text) return undefined;
  // The spec's times may lack a zone: they are UTC.
  const withZone = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text}Z` : text;
  const date = new Date(withZone);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1900 || year > 9999)
    throw new HttpError(
      400,
      `${name} must be a date between 1900 and 9999, such as 2024-05-01 or 2024-05-01T12:00:00Z`,
    );
  return date;
}

/** A cursor: where the page ended, bound to the sort it was made for. */
function encodeCursor(row: RecordingRow, sortValue: unknown, sort: RecordingSort, order: string): string {
  // A live session's end sorts as 'infinity', which drivers answer as an invalid date or Infinity.
  const infinite =
    (sortValue instanceof Date && Number.isNaN(sortValue.getTime())) ||
    (typeof sortValue === 'number' && !Number.isFinite(sortValue));
  const value = infinite
    ? 'infinity'
    : sortValue instanceof Date
      ? sortValue.toISOString()
      : typeof sortValue === 'string' || typeof sortValue === 'number'
        ? String(sortValue)
        : null;
  return Buffer.from(JSON.stringify([sort, order, value, row.startedOn.toISOString(), row.id])).toString('base64url');
}

function decodeCursor(cursor: string, sort: RecordingSort, order: string): KeysetPosition {
  const bad = () => new HttpError(400, 'cursor is not one this list gave out; start again without it.');
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parts) || parts.length !== 5) throw bad();
  const [s, o, value, startedOn, id] = parts as unknown[];
  if (s !== sort || o !== order)
    throw new HttpError(400, 'cursor belongs to another sort order; start again without it.');
  if ((value !== null && typeof value !== 'string') || typeof startedOn !== 'string' || typeof id !== 'string')
    throw bad();
  if (Number.isNaN(new Date(startedOn).getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) throw bad();
  return { value, startedOn, id };
}

/** Sessions as the console sees them: listing, watching (with the object check) and terminating. */
export class SessionsService {
  /** Verifications and searches of this process: two of each at a time, a few more waiting. */
  private readonly verifications = new ScanQueue();
  private readonly searches = new ScanQueue();

  constructor(
    private readonly rows: RecordingsRepository,
    private readonly recordings: RecordingsService,
    private readonly policy: AccessPolicy,
  ) {}

  /**
   * One page of the recordings the caller may see, started in the window (the spec's defaults:
   * 2020-01-01 to now), filtered and sorted on the server, with the cursor of the next page.
   */
  async list(principal: Principal, query: ListQuery) {
    const start = parseDate(query.start, 'start') ?? new Date('2020-01-01T00:00:00Z');
    const end = parseDate(query.end, 'end') ?? new Date();
    const filter: RecordingFilter = {
      start,
      end,
      agentIds: await this.policy.reachableAgents(principal),
      type: query.type,
      live: query.live,
      host: query.host,
      user: query.user?.trim().toLowerCase() || undefined,
      tunnel: query.tunnel && query.tunnel !== 'all' ? query.tunnel : undefined,
      text: query.q?.trim() || undefined,
      minDurationSeconds: query.min_duration,
      forwarded: query.forwarded,
      hold: query.hold,
      kind: query.kind,
    };
    const after = query.cursor ? decodeCursor(query.cursor, query.sort, query.order) : undefined;
    const [page, total] = await Promise.all([
      this.rows.page(filter, query.sort, query.order, query.limit, after),
      query.with_total ? this.rows.count(filter) : Promise.resolve(undefined),
    ]);
    const last = page.rows.at(-1);
    return {
      recordings: page.rows.map((r) => toRecording(r.row)),
      next_cursor: page.more && last ? encodeCursor(last.row, last.sortValue, query.sort, query.order) : null,
      ...(total === undefined ? {} : { total }),
    };
  }

  /** One session in detail, after the object check. */
  async detail(principal: Principal, id: string): Promise<z.infer<typeof RecordingDetail>> {
    const row = await this.forWatcher(principal, id);
    const end = row.endedOn ?? new Date();
    return {
      ...toRecording(row),
      width: row.width,
      height: row.height,
      bytes: await this.castSize(row),
      chunks: row.chunks,
      duration_ms: Math.max(0, end.getTime() - row.startedOn.getTime()),
      video_bytes: row.videoBytes,
      manifest_signed: row.manifest !== null,
      tunnel_id: row.definitionId,
      user_id: row.userId,
    };
  }

  /** How much of a session's cast is complete (a stored one: its object's size). */
  async castSize(row: RecordingRow): Promise<number> {
    const objects = this.recordings.objects;
    if (objects?.stored(row)) return (await objectRead(() => objects.size(row, 'cast'))) ?? 0;
    return completeSize(row.storagePath, row.endedOn !== null);
  }

  /** The local cast file of a session: its own, or a cached copy of a stored one. */
  private async castPath(row: RecordingRow): Promise<string> {
    const objects = this.recordings.objects;
    if (objects?.stored(row)) return objectRead(() => objects.cached(row));
    return row.storagePath;
  }

  /** The cast file of a session, opened up to its last complete chunk. */
  async openCast(principal: Principal, id: string): Promise<{ row: RecordingRow; cast: CastFile }> {
    const row = await this.forWatcher(principal, id);
    const file = await this.castPath(row);
    const size = await completeSize(file, row.endedOn !== null);
    const cast = await CastFile.open(file, size).catch(() => {
      throw new HttpError(404, 'The recording’s file is missing from the recording storage.');
    });
    return { row, cast };
  }

  /** Where time t lies in a session's cast file. */
  async seek(principal: Principal, id: string, t: number) {
    const { cast } = await this.openCast(principal, id);
    try {
      const at = await cast.seek(t);
      return { ...at, size: cast.size, events_start: cast.eventsStart, duration: await cast.duration() };
    } finally {
      await cast.close();
    }
  }

  /** Where text appears in a session's output. */
  async search(principal: Principal, id: string, q: string) {
    const { cast } = await this.openCast(principal, id);
    let found: Awaited<ReturnType<typeof searchCast>> | undefined;
    try {
      found = await this.searches.run(() => searchCast(cast, q));
    } finally {
      await cast.close();
    }
    if (!found) throw new HttpError(503, 'This server is searching many recordings right now; try again in a minute.');
    return found;
  }

  /**
   * Checks a session's recording against its chain, its signed manifest and checkpoints, and what
   * the database committed of it. The manifest must be signed with one of this installation's
   * keys (`keys.known`); `keys.active` checks the signature of one that is not.
   */
  async verify(
    principal: Principal,
    id: string,
    keys: { active: string; known: KnownSigningKey[] },
  ): Promise<z.infer<typeof RecordingIntegrity>> {
    const row = await this.forWatcher(principal, id);
    const integrity = (status: z.infer<typeof RecordingIntegrity>['status'], message: string, bytes = 0) => ({
      status,
      message,
      checked_bytes: bytes,
      chunks: row.chunks,
    });
    if (!row.endedOn) return integrity('live', 'The session is live: its recording is signed when it ends.');
    const objects = this.recordings.objects;
    // A stored recording is checked on a fresh copy of its objects, never on a cached one.
    if (objects?.stored(row))
      return objectRead(() => objects.withCopy(row, (cast) => this.verifyFile(row, cast, keys, integrity)));
    return this.verifyFile(row, row.storagePath, keys, integrity);
  }

  private async verifyFile(
    row: RecordingRow,
    castPath: string,
    keys: { active: string; known: KnownSigningKey[] },
    integrity: (
      status: z.infer<typeof RecordingIntegrity>['status'],
      message: string,
      bytes?: number,
    ) => z.infer<typeof RecordingIntegrity>,
  ): Promise<z.infer<typeof RecordingIntegrity>> {
    const id = row.id;
    const file = await fs.stat(castPath).catch(() => undefined);
    if (!file) return integrity('missing', 'The recording’s file is missing from the recording storage.');
    if (!row.manifest) return integrity('unsigned', 'This recording has no signed manifest.', file.size);
    const manifest = row.manifest as SignedManifest;
    const trust = manifestKey(manifest, keys.known, row.endedOn ?? new Date());
    const checkpoints = await this.rows.checkpoints(id);
    const result = await this.verifications
      .run(() =>
        verifyRecording(castPath, manifest, trust.key?.publicKey ?? keys.active, {
          checkpoints,
          checkpointKeys: keys.known.map((k) => k.publicKey),
          committed: { bytes: row.bytes, chunks: row.chunks, chainHead: row.chainHead },
        }),
      )
      .catch((error: NodeJS.ErrnoException) => {
        throw new HttpError(503, `The recording storage could not be read (${error.code ?? error.message}).`);
      });
    if (!result) throw new HttpError(503, 'This server is verifying many recordings right now; try again in a minute.');
    if (trust.problem) result.problems.unshift(trust.problem);
    const video = await this.verifyVideo(row, manifest, keys);
    const answer =
      result.problems.length === 0
        ? integrity(
            'intact',
            `Intact: ${manifest.chunks} chunks and ${manifest.bytes} bytes match the signed manifest.`,
            file.size,
          )
        : integrity('tampered', `Tampered: ${result.problems.join('; ')}.`, file.size);
    if (!video) return answer;
    // A tampered video is a tampered recording: the badge, the API and the CLI say so alike.
    if (video.status === 'tampered' && answer.status === 'intact')
      return { ...answer, status: 'tampered', message: `Tampered: ${video.message}`, video };
    if (video.status === 'tampered') return { ...answer, message: `${answer.message} And ${video.message}`, video };
    return { ...answer, video };
  }

  /**
   * An rdp session's video checked against its committed pieces (their SHA-256 and chain), its
   * signed video manifest and the terminal manifest's statement of it; undefined without video.
   * Read from the local file, or from object storage (the joined object or its pieces).
   */
  private async verifyVideo(
    row: RecordingRow,
    manifest: SignedManifest,
    keys: { active: string; known: KnownSigningKey[] },
  ): Promise<z.infer<typeof RecordingIntegrity>['video']> {
    const videoManifest = row.videoManifest as SignedVideoManifest | null;
    if (row.type !== 'rdp' || (row.videoBytes === 0 && !videoManifest)) return undefined;
    const answer = (status: VideoVerification['status'], message: string, found?: VideoVerification) => ({
      status,
      message,
      bytes: found?.bytes ?? row.videoBytes,
      pieces: found?.pieces ?? row.videoPieces,
      cut: videoManifest?.end === 'cut',
    });
    if (row.videoChainHead === null && !videoManifest)
      return answer(
        'uncovered',
        'The video was stored before video digests existed (migration 0025): no signature covers it.',
      );
    const trust = videoManifest
      ? manifestKey(
          { public_key: videoManifest.public_key } as SignedManifest,
          keys.known,
          new Date(videoManifest.signed_at),
        )
      : { key: undefined, problem: undefined };
    const objects = this.recordings.objects;
    const local = videoPathOf(row.storagePath);
    const key = row.objectKey;
    const open = async (): Promise<AsyncIterable<Buffer> | undefined> => {
      if (
        await fs.stat(local).then(
          () => true,
          () => false,
        )
      )
        return createReadStream(local);
      if (!objects || !key) return undefined;
      // Past the committed length too: bytes added after the signature are a finding.
      return objectRead(() => objects.readVideo(key, 0, Math.max(row.videoBytes, 1) + VIDEO_SLACK_BYTES));
    };
    const found = await this.verifications
      .run(async () =>
        verifyVideo({
          recordingId: row.id,
          manifest: videoManifest,
          publicKey: trust.key?.publicKey ?? keys.active,
          pieces: await this.rows.videoPieces(row.id),
          open,
          committed: { bytes: row.videoBytes, pieces: row.videoPieces, chainHead: row.videoChainHead },
          terminal: manifest.video,
          final: row.videoFinal,
        }),
      )
      .catch((error: NodeJS.ErrnoException) => {
        if (error instanceof HttpError) throw error;
        throw new HttpError(503, `The video storage could not be read (${error.code ?? error.message}).`);
      });
    if (!found) throw new HttpError(503, 'This server is verifying many recordings right now; try again in a minute.');
    if (trust.problem) {
      found.problems.unshift(trust.problem.replace('the manifest', 'the video manifest'));
      found.status = 'tampered';
    }
    if (found.status === 'tampered') return answer('tampered', `the video: ${found.problems.join('; ')}.`, found);
    if (found.status === 'uploading')
      return answer(
        'uploading',
        `The video is still being uploaded (${found.pieces} pieces, ${found.bytes} bytes so far match their digests): ` +
          'it is signed when complete, or as cut once the session has ended and nothing arrived for 10 minutes.',
        found,
      );
    return answer(
      'intact',
      `The video is covered: ${found.pieces} pieces and ${found.bytes} bytes match the signed video manifest` +
        `${videoManifest?.end === 'cut' ? ' (its upload never completed: what arrived was signed as cut)' : ''}.`,
      found,
    );
  }

  /** The recording a watcher asks for, after the permission and the object check. */
  async forWatcher(principal: Principal, id: string, context?: DecisionContext): Promise<RecordingRow> {
    if (!principal.permissions.has('list-recording'))
      throw new HttpError(403, 'Watching sessions needs the list-recording permission.');
    const row = await this.rows.find(id);
    if (!row || !(await this.policy.mayWatch(principal, row, context)))
      throw new HttpError(404, 'There is no session with that id that you may watch.');
    return row;
  }

  /**
   * What a watcher sees on attaching: the recording's last REPLAY_BYTES (whole events, up to the
   * last complete chunk) and that chunk's number; a terminal shows no more anyway.
   */
  async replay(row: RecordingRow): Promise<{ upto: number; events: CastEvent[] }> {
    return castTail(await this.castPath(row), REPLAY_BYTES);
  }

  /**
   * Ends a live session within a second; the user is told who ended it. terminate-session (the
   * route's permission) acts on sessions the principal may watch: list-recording and the host in
   * reach, as the policy answers for watching; anything else is answered as unknown.
   */
  async terminate(principal: Principal, id: string, hostId: string | undefined) {
    const row = await this.rows.find(id);
    if (!row || !(await this.policy.mayWatch(principal, row)))
      throw new HttpError(404, 'There is no session with that id.');
    if (hostId && row.agentId && hostId !== row.agentId)
      throw new HttpError(400, 'The host-id header names another host than the session’s.');
    if (row.endedOn) throw new HttpError(409, 'The session has ended already.');
    // The session may live on another instance: requestTerminate reaches it through Redis.
    if (!(await this.recordings.requestTerminate(id, principal.email)))
      throw new HttpError(
        409,
        'No server instance holds this session now (it is ending, or its server stopped); try again in a moment.',
      );
    return { message: 'Session terminated' };
  }
}

/** A read of object storage; when it cannot be reached, a 503 that says so (never a 500). */
async function objectRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey') throw new HttpError(404, 'The recording’s object is missing from the object storage.');
    if (e.code && !e.$metadata) throw error; // a local file error: as before
    throw new HttpError(503, `The object storage could not be read (${storageError(error)}); try again in a moment.`);
  }
}

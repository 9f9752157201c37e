import { type SQL, and, asc, eq, gte, ilike, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { recordingCheckpoints, recordingStarts, recordingVideoPieces, recordings } from '../db/schema.js';
import type { SignedCheckpoint, VideoPiece } from './chain.js';
import { rowsOf } from '../db/rows.js';

/** At most this many long-running sessions are charted (as before migration 0027). */
const LONG_RUNNING_LIMIT = 100_000;

/** A recording row. */
export type RecordingRow = typeof recordings.$inferSelect;

/** Sorts of the session list and the column (besides started_on) each orders by. */
const SORT_KEYS = {
  started_on: undefined,
  ended_on: sql`coalesce(${recordings.endedOn}, 'infinity'::timestamptz)`,
  hostname: sql`${recordings.hostname}`,
  user: sql`${recordings.userEmail}`,
  type: sql`${recordings.type}`,
  kind: sql`coalesce(${recordings.kind}, '')`,
} as const;
export type RecordingSort = keyof typeof SORT_KEYS;

/** What the session list filters by; agentIds limits it to hosts the caller may reach. */
export interface RecordingFilter {
  start: Date;
  end: Date;
  agentIds?: string[];
  type?: string;
  live?: boolean;
  host?: string;
  user?: string;
  tunnel?: string;
  text?: string;
  minDurationSeconds?: number;
  /** Only sessions that forwarded ports with ssh -L (true), or only those that did not (false). */
  forwarded?: boolean;
  /** Only recordings on legal hold (true), or only those not on hold (false). */
  hold?: boolean;
  /** Only sessions whose first channel was of this kind (shell, exec, sftp, scp, forward), or browser desktops (desktop). */
  kind?: string;
}

/** Where a page ended: the last row's sort value, start and id. */
export interface KeysetPosition {
  value: string | null;
  startedOn: string;
  id: string;
}

/** Queries on recordings (metadata only: bytes live in files). */
export class RecordingsRepository {
  constructor(private readonly db: Db) {}

  /** Starts a recording row; answers it. */
  async create(values: typeof recordings.$inferInsert): Promise<RecordingRow> {
    const [row] = await this.db.insert(recordings).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** Its files are now the final objects in object storage (issue 17): reads go there. */
  async stored(id: string): Promise<void> {
    await this.db.update(recordings).set({ storage: 's3' }).where(eq(recordings.id, id));
  }

  /** Ended recordings with objects named whose files are still local (some may be on this instance). */
  async awaitingUpload(limit: number): Promise<RecordingRow[]> {
    return this.db
      .select()
      .from(recordings)
      .where(and(eq(recordings.storage, 'local'), isNotNull(recordings.objectKey), isNotNull(recordings.endedOn)))
      .orderBy(asc(recordings.endedOn))
      .limit(limit);
  }

  /** The committed pieces of a recording's RDP video, in order (migration 0025). */
  async videoPieces(id: string): Promise<VideoPiece[]> {
    const rows = await this.db
      .select()
      .from(recordingVideoPieces)
      .where(eq(recordingVideoPieces.recordingId, id))
      .orderBy(asc(recordingVideoPieces.seq));
    return rows.map((r) => ({ seq: r.seq, offset: r.byteOffset, length: r.length, sha256: r.sha256, chain: r.chain }));
  }

  /** One recording. */
  async find(id: string): Promise<RecordingRow | undefined> {
    return (await this.db.select().from(recordings).where(eq(recordings.id, id)).limit(1))[0];
  }

  /**
   * Commits the progress of several live recordings in one statement (ProgressBatcher): each row
   * moves forward only (never to fewer chunks) and never once the recording has ended. A row another
   * transaction holds locked is skipped, not waited for: one statement carries every live
   * recording's progress, and a lock held for long (a transaction left open) would otherwise hold
   * back them all. Answers the ids of the rows skipped so, to be committed again later.
   */
  async progressMany(items: { id: string; bytes: number; chunks: number; chainHead: string }[]): Promise<string[]> {
    if (items.length === 0) return [];
    const values = sql.join(
      items.map((p) => sql`(${p.id}::uuid, ${p.bytes}::bigint, ${p.chunks}::integer, ${p.chainHead}::text)`),
      sql`, `,
    );
    // The last SELECT sees the rows as they were before the statement: those that would have moved
    // but were not updated are the ones skipped as locked.
    const rows = await this.db.execute<{ id: string }>(sql`
      WITH v(id, bytes, chunks, chain_head) AS (VALUES ${values}),
      movable AS (
        SELECT r.id FROM recordings r JOIN v ON r.id = v.id
        WHERE r.chunks < v.chunks AND r.ended_on IS NULL
        FOR UPDATE OF r SKIP LOCKED
      ),
      moved AS (
        UPDATE recordings SET bytes = v.bytes, chunks = v.chunks, chain_head = v.chain_head, last_flush_at = now()
        FROM v WHERE recordings.id = v.id AND recordings.id IN (SELECT id FROM movable)
        RETURNING recordings.id
      )
      SELECT r.id FROM recordings r JOIN v ON r.id = v.id
      WHERE r.chunks < v.chunks AND r.ended_on IS NULL AND r.id NOT IN (SELECT id FROM moved)`);
    return rowsOf<{ id: string }>(rows).map((r) => String(r.id));
  }

  /** Stores signed checkpoints of live recordings in one statement (once per recording and chunk number). */
  async addCheckpoints(checkpoints: SignedCheckpoint[]): Promise<void> {
    if (checkpoints.length === 0) return;
    await this.db
      .insert(recordingCheckpoints)
      .values(
        checkpoints.map((checkpoint) => ({
          recordingId: checkpoint.recording_id,
          seq: checkpoint.seq,
          bytes: checkpoint.bytes,
          chainHead: checkpoint.chain_head,
          at: new Date(checkpoint.at),
          signature: checkpoint.signature,
        })),
      )
      .onConflictDoNothing();
  }

  /** A recording's signed checkpoints, by chunk number. */
  async checkpoints(id: string): Promise<SignedCheckpoint[]> {
    const rows = await this.db
      .select()
      .from(recordingCheckpoints)
      .where(eq(recordingCheckpoints.recordingId, id))
      .orderBy(asc(recordingCheckpoints.seq));
    return rows.map((r) => ({
      recording_id: r.recordingId,
      seq: r.seq,
      bytes: r.bytes,
      chain_head: r.chainHead,
      at: r.at.toISOString(),
      signature: r.signature,
    }));
  }

  /** Notes a target (host:port) the session forwarded to, once per target. */
  async addForward(id: string, target: string): Promise<void> {
    await this.db
      .update(recordings)
      .set({ forwards: sql`array_append(${recordings.forwards}, ${target}::text)` })
      .where(and(eq(recordings.id, id), sql`NOT (${target}::text = ANY(${recordings.forwards}))`));
  }

  /** Keeps live sessions' heartbeat fresh while they print nothing (one statement for all of `ids`). */
  async heartbeat(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(recordings)
      .set({ lastFlushAt: sql`now()` })
      .where(inArray(recordings.id, ids));
  }

  /** Finalises a recording. */
  async finish(id: string, values: Partial<typeof recordings.$inferInsert>): Promise<void> {
    await this.db
      .update(recordings)
      .set({ ...values, endedOn: values.endedOn ?? sql`now()` })
      .where(and(eq(recordings.id, id), isNull(recordings.endedOn)));
  }

  /**
   * Live recordings no running instance writes: those of instances known gone (migration 0017),
   * those `self` took over, and those of no known instance (older rows, or an instance forgotten)
   * silent for `silentSeconds`. Candidates for recovery; `self`'s own live ones are the caller's
   * to leave out.
   */
  async orphans(silentSeconds: number, self?: string): Promise<RecordingRow[]> {
    const owner = sql`(SELECT gone_at IS NOT NULL FROM server_instances WHERE id = ${recordings.instanceId})`;
    return this.db
      .select()
      .from(recordings)
      .where(
        and(
          isNull(recordings.endedOn),
          or(
            self === undefined ? sql`false` : eq(recordings.instanceId, self),
            sql`${owner} IS TRUE`,
            and(
              sql`${owner} IS NULL`,
              lt(recordings.lastFlushAt, sql`now() - make_interval(secs => ${silentSeconds})`),
            ),
          ),
        ),
      );
  }

  /**
   * Takes a live recording over from the instance holding it (`from`, or none): true for exactly
   * one caller, however many instances try at once.
   */
  async takeOver(id: string, from: string | null, to: string): Promise<boolean> {
    const rows = await this.db
      .update(recordings)
      .set({ instanceId: to })
      .where(
        and(
          eq(recordings.id, id),
          isNull(recordings.endedOn),
          from === null ? isNull(recordings.instanceId) : eq(recordings.instanceId, from),
        ),
      )
      .returning({ id: recordings.id });
    return rows.length > 0;
  }

  /**
   * One page of the session list: filters, a sort, and keyset paging over (sort value,
   * started_on, id) so every page costs the same at any depth.
   */
  async page(
    filter: RecordingFilter,
    sort: RecordingSort,
    order: 'asc' | 'desc',
    limit: number,
    after?: KeysetPosition,
  ) {
    const where = this.conditions(filter);
    const key = SORT_KEYS[sort];
    const dir = order === 'asc' ? sql`ASC` : sql`DESC`;
    if (after) {
      const tuple = key
        ? sql`(${key}, ${recordings.startedOn}, ${recordings.id})`
        : sql`(${recordings.startedOn}, ${recordings.id})`;
      const values = key
        ? sql`(${after.value}, ${after.startedOn}::timestamptz, ${after.id}::uuid)`
        : sql`(${after.startedOn}::timestamptz, ${after.id}::uuid)`;
      where.push(order === 'asc' ? sql`${tuple} > ${values}` : sql`${tuple} < ${values}`);
    }
    const orderBy = key
      ? sql`${key} ${dir}, ${recordings.startedOn} ${dir}, ${recordings.id} ${dir}`
      : sql`${recordings.startedOn} ${dir}, ${recordings.id} ${dir}`;
    const rows = await this.db
      .select({ row: recordings, sortValue: key ? sql<unknown>`${key}` : sql<null>`null` })
      .from(recordings)
      .where(and(...where))
      .orderBy(orderBy)
      .limit(limit + 1);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  /** How many recordings match a filter. */
  async count(filter: RecordingFilter): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(recordings)
      .where(and(...this.conditions(filter)));
    return row?.n ?? 0;
  }

  private conditions(f: RecordingFilter): SQL[] {
    const out: SQL[] = [gte(recordings.startedOn, f.start), lte(recordings.startedOn, f.end)];
    if (f.agentIds) out.push(f.agentIds.length ? inArray(recordings.agentId, f.agentIds) : sql`false`);
    if (f.type) out.push(eq(recordings.type, f.type));
    if (f.live === true) out.push(isNull(recordings.endedOn));
    if (f.live === false) out.push(isNotNull(recordings.endedOn));
    if (f.host) out.push(eq(recordings.agentId, f.host));
    if (f.user) out.push(eq(recordings.userEmail, f.user));
    if (f.tunnel) out.push(eq(recordings.definitionName, f.tunnel));
    if (f.forwarded === true) out.push(sql`cardinality(${recordings.forwards}) > 0`);
    if (f.forwarded === false) out.push(sql`cardinality(${recordings.forwards}) = 0`);
    if (f.hold !== undefined) out.push(eq(recordings.legalHold, f.hold));
    if (f.kind) out.push(eq(recordings.kind, f.kind));
    if (f.minDurationSeconds) {
      const d = f.minDurationSeconds;
      // Live sessions qualify by their start alone, which the started_on index answers.
      out.push(
        f.live === true
          ? lte(recordings.startedOn, sql`now() - make_interval(secs => ${d})`)
          : sql`coalesce(${recordings.endedOn}, now()) - ${recordings.startedOn} >= make_interval(secs => ${d})`,
      );
    }
    if (f.text) {
      const like = `%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const text = or(
        ilike(recordings.hostname, like),
        ilike(recordings.userEmail, like),
        ilike(recordings.definitionName, like),
      );
      if (text) out.push(text);
    }
    return out;
  }

  /**
   * Sessions started in each of consecutive intervals [edges[i], edges[i + 1]) (edges ascending, each
   * on a quarter hour, as hours and local midnights are): one count per interval, counted by the
   * database (width_bucket), so only the counts cross the wire. Of every host: from recording_starts,
   * the counts per quarter hour the triggers of migration 0027 keep (a row per quarter hour, whatever
   * the number of recordings); of some hosts: from the recordings, by the (agent_id, started_on) index.
   */
  async startsWithin(edges: Date[], agentIds?: string[]): Promise<number[]> {
    const counts = edges.slice(1).map(() => 0);
    const first = edges[0];
    const last = edges.at(-1);
    if (!first || !last || edges.length < 2) return counts;
    const bounds = sql`${`{${edges.map((d) => d.toISOString()).join(',')}}`}::timestamptz[]`;
    const rows = agentIds
      ? await this.db
          .select({ i: sql<number>`width_bucket(${recordings.startedOn}, ${bounds})`, n: sql<number>`count(*)::int` })
          .from(recordings)
          .where(
            and(
              gte(recordings.startedOn, first),
              lt(recordings.startedOn, last),
              inArray(recordings.agentId, agentIds),
            ),
          )
          .groupBy(sql`1`)
      : await this.db
          .select({
            i: sql<number>`width_bucket(${recordingStarts.bucket}, ${bounds})`,
            n: sql<number>`sum(${recordingStarts.sessions})::int`,
          })
          .from(recordingStarts)
          .where(and(gte(recordingStarts.bucket, first), lt(recordingStarts.bucket, last)))
          .groupBy(sql`1`);
    for (const row of rows) {
      const i = Number(row.i) - 1;
      if (i >= 0 && i < counts.length) counts[i]! += Number(row.n);
    }
    return counts;
  }

  /**
   * Sessions that ran (or run) for at least a day, by start; and how many of them are live now.
   * Two index scans: live ones by recordings_live_started_idx, ended ones by recordings_long_ended_idx
   * (migration 0027), whose predicate the ended branch repeats word for word.
   */
  async longRunning(agentIds?: string[]): Promise<{ starts: Date[]; liveNow: number }> {
    const visible = agentIds ? inArray(recordings.agentId, agentIds) : undefined;
    const started = lte(recordings.startedOn, sql`now() - interval '24 hours'`);
    const live = await this.db
      .select({ startedOn: recordings.startedOn })
      .from(recordings)
      .where(and(visible, started, isNull(recordings.endedOn)))
      .limit(LONG_RUNNING_LIMIT);
    const ended = await this.db
      .select({ startedOn: recordings.startedOn })
      .from(recordings)
      .where(and(visible, started, sql`${recordings.endedOn} - ${recordings.startedOn} >= interval '24 hours'`))
      .limit(LONG_RUNNING_LIMIT - live.length);
    return { starts: [...live, ...ended].map((r) => r.startedOn), liveNow: live.length };
  }

  /**
   * The first session's start, if any; of every host, the start of its quarter hour (from
   * recording_starts), which falls on the same day in every time zone.
   */
  async firstStart(agentIds?: string[]): Promise<Date | undefined> {
    if (!agentIds) {
      const [row] = await this.db
        .select({ at: sql<Date | null>`min(${recordingStarts.bucket})` })
        .from(recordingStarts);
      return row?.at ? new Date(row.at) : undefined;
    }
    const [row] = await this.db
      .select({ at: recordings.startedOn })
      .from(recordings)
      .where(inArray(recordings.agentId, agentIds))
      .orderBy(asc(recordings.startedOn), asc(recordings.id))
      .limit(1);
    return row?.at;
  }

  /** How many recordings there are: the sum of recording_starts (migration 0027), not a count of a million rows. */
  async total(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`coalesce(sum(${recordingStarts.sessions}), 0)::int` })
      .from(recordingStarts);
    return Number(row?.n ?? 0);
  }

  /** Live sessions (optionally of some hosts). */
  async liveCount(agentIds?: string[]): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(recordings)
      .where(and(isNull(recordings.endedOn), agentIds ? inArray(recordings.agentId, agentIds) : undefined));
    return row?.n ?? 0;
  }

  /** How many recordings exist and how many are live. */
  async counts(): Promise<{ total: number; live: number }> {
    const [row] = await this.db
      .select({
        total: sql<number>`count(*)::int`,
        live: sql<number>`(count(*) FILTER (WHERE ${recordings.endedOn} IS NULL))::int`,
      })
      .from(recordings);
    return { total: row?.total ?? 0, live: row?.live ?? 0 };
  }
}

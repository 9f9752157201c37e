import { type SQL, and, desc, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { recordings } from '../db/schema.js';
import type { RecordingRow } from './recordings.repository.js';
import type { TextEntry, TextKind } from './text-extract.js';

/** A claim older than this, never finished, is taken to belong to a dead instance and may be taken over. */
export const STALE_CLAIM_SECONDS = 30 * 60;
/**
 * Rows per INSERT while storing a recording's text. Each row feeds the trigram index about one entry
 * per character, so a statement's time follows its text: 500 lines of base64 (every trigram new)
 * take a few tens of milliseconds. On PostgreSQL a statement does not hold the server's thread, and
 * 500 rows a statement keeps the round trips few.
 */
const BATCH = 500;
/**
 * The embedded database runs each statement on the server's own thread, holding every session's
 * relay until it returns: after a bulk copy, storing its 4 MiB of capped text in batches of 500 left
 * the gateway's event loop delay at p99 27 ms for 4 s (docs/benchmarks.md, "Indexing after a bulk
 * copy"). There the batch is sized from the last statement's time so that one takes about this long.
 */
export const EMBEDDED_STATEMENT_MS = 4;
const EMBEDDED_FIRST_BATCH = 50;
const EMBEDDED_MIN_BATCH = 5;

/** Rows for the next INSERT on the embedded database, from the last one's rows and time. */
export function nextEmbeddedBatch(rows: number, ms: number): number {
  const scaled = Math.floor((rows * EMBEDDED_STATEMENT_MS) / Math.max(ms, 0.05));
  // Grows at most fourfold a step, so one fast statement of short lines cannot make the next huge.
  return Math.max(EMBEDDED_MIN_BATCH, Math.min(BATCH, rows * 4, scaled));
}

/**
 * Between two batches: gives the event loop a turn, then waits as long as the batch took (at most a
 * second). The embedded database runs on the server's own thread and its queries resolve without
 * waiting for any I/O: a loop of awaited statements never let a timer, a socket or an HTTP request
 * run, and storing a 4 MiB flood's text blocked the server for tens of seconds, long enough to drop
 * agents (faults/ slow-watcher). Paced, indexing takes at most half the thread.
 */
async function pace(statementMs: number): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(0, statementMs))));
}

/** What a search across recordings looks for, and in which sessions (visibility decided by the caller). */
export interface TextSearch {
  /** The ILIKE pattern: the text with \, % and _ escaped, between %. */
  pattern: string;
  kinds?: TextKind[];
  start: Date;
  end: Date;
  /** Hosts the searcher reaches; undefined means every host. */
  agentIds?: string[];
  /** Sessions after this position (started_on in microseconds since 1970, and id) in newest-first order. */
  after?: { startedOn: string; id: string };
  limit: number;
}

/** An indexed line that matched. */
export interface TextHit {
  recordingId: string;
  t: number;
  kind: TextKind;
  text: string;
}

/** The search index's rows: claims, the text of each recording, and searches over it. */
export class RecordingTextRepository {
  constructor(private readonly database: Database) {}

  /** The ILIKE pattern of a literal text: \, % and _ escaped (backslash is LIKE's escape). */
  static pattern(text: string): string {
    return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }

  /**
   * Claims one ended recording for indexing: true for exactly one caller across instances, unless
   * it is indexed already or another instance's claim is fresh.
   */
  async claim(id: string, by: string): Promise<boolean> {
    const rows = await this.database.query(
      `INSERT INTO recording_text_state (recording_id, claimed_by)
       SELECT id, $2 FROM recordings WHERE id = $1 AND ended_on IS NOT NULL
       ON CONFLICT (recording_id) DO UPDATE SET claimed_by = EXCLUDED.claimed_by, claimed_at = now()
         WHERE recording_text_state.indexed_at IS NULL
           AND recording_text_state.claimed_at < now() - make_interval(secs => $3)
       RETURNING recording_id`,
      [id, by, STALE_CLAIM_SECONDS],
    );
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` ended recordings not yet indexed (newest first), and claims left stale by
   * a dead instance; answers their ids. Two instances never get the same id.
   */
  async claimBacklog(by: string, limit: number): Promise<string[]> {
    const fresh = await this.database.query<{ recording_id: string }>(
      `INSERT INTO recording_text_state (recording_id, claimed_by)
       SELECT r.id, $1 FROM recordings r
        WHERE r.ended_on IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM recording_text_state s WHERE s.recording_id = r.id)
        ORDER BY r.ended_on DESC
        LIMIT $2
       ON CONFLICT (recording_id) DO NOTHING
       RETURNING recording_id`,
      [by, limit],
    );
    if (fresh.length >= limit) return fresh.map((r) => r.recording_id);
    const stale = await this.database.query<{ recording_id: string }>(
      `UPDATE recording_text_state SET claimed_by = $1, claimed_at = now()
        WHERE recording_id IN (
          SELECT recording_id FROM recording_text_state
           WHERE indexed_at IS NULL AND claimed_at < now() - make_interval(secs => $3)
           LIMIT $2 FOR UPDATE SKIP LOCKED)
          AND indexed_at IS NULL AND claimed_at < now() - make_interval(secs => $3)
       RETURNING recording_id`,
      [by, limit - fresh.length, STALE_CLAIM_SECONDS],
    );
    return [...fresh, ...stale].map((r) => r.recording_id);
  }

  /** What indexing needs of a recording: its file and, where helper C's column exists, its command. */
  async source(id: string): Promise<{ storagePath: string; command: string | null } | undefined> {
    const [row] = await this.database.query<{ storage_path: string; command?: string | null }>(
      `SELECT storage_path, to_jsonb(r) -> 'command' #>> '{}' AS command FROM recordings r WHERE id = $1`,
      [id],
    );
    return row ? { storagePath: row.storage_path, command: row.command ?? null } : undefined;
  }

  /**
   * Stores a recording's text and marks it indexed while `by` holds the claim (an instance that
   * lost it to a takeover writes nothing more): answers whether it stored. Batches are separate
   * statements, not one transaction: the embedded database runs one statement at a time, and a
   * transaction of 100,000 lines would hold every other query back. Each batch is written only
   * while the claim is held and refreshes it; a takeover starts by removing what a dead claimant left.
   */
  async store(id: string, by: string, entries: TextEntry[], truncated: boolean): Promise<boolean> {
    const held = `EXISTS (SELECT 1 FROM recording_text_state
                     WHERE recording_id = $1 AND claimed_by = $2 AND indexed_at IS NULL)`;
    const fresh = await this.database.query(
      `UPDATE recording_text_state SET claimed_at = now()
        WHERE recording_id = $1 AND claimed_by = $2 AND indexed_at IS NULL RETURNING recording_id`,
      [id, by],
    );
    if (fresh.length === 0) return false;
    await this.database.query(`DELETE FROM recording_text WHERE recording_id = $1 AND ${held}`, [id, by]);
    const embedded = this.database.kind === 'pglite';
    let lastMs = 0;
    let batch = embedded ? EMBEDDED_FIRST_BATCH : BATCH;
    for (let at = 0; at < entries.length; at += batch) {
      if (at > 0) {
        await pace(lastMs);
        if (embedded) batch = nextEmbeddedBatch(batch, lastMs);
      }
      const started = performance.now();
      const part = entries.slice(at, at + batch);
      const [written] = await this.database.query<{ n: number }>(
        `WITH written AS (
           INSERT INTO recording_text (recording_id, seq, t, kind, text)
           SELECT $1, * FROM unnest($3::int[], $4::float8[], $5::text[], $6::text[]) WHERE ${held}
           RETURNING 1)
         SELECT count(*)::int AS n FROM written`,
        [id, by, part.map((_, i) => at + i), part.map((e) => e.t), part.map((e) => e.kind), part.map((e) => e.text)],
      );
      lastMs = performance.now() - started;
      if ((written?.n ?? 0) < part.length) return false;
    }
    const done = await this.database.query(
      `UPDATE recording_text_state SET indexed_at = now(), lines = $3, truncated = $4, error = NULL
        WHERE recording_id = $1 AND claimed_by = $2 AND indexed_at IS NULL RETURNING recording_id`,
      [id, by, entries.length, truncated],
    );
    return done.length > 0;
  }

  /** Marks a claimed recording as indexed with nothing, saying why (its file is missing or unreadable). */
  async failed(id: string, by: string, error: string): Promise<void> {
    await this.database.query(
      `UPDATE recording_text_state SET indexed_at = now(), lines = 0, error = $3
        WHERE recording_id = $1 AND claimed_by = $2 AND indexed_at IS NULL`,
      [id, by, error.slice(0, 500)],
    );
  }

  /** Whether a recording is indexed (tests and the bench wait on it). */
  async indexed(id: string): Promise<boolean> {
    const rows = await this.database.query(
      'SELECT 1 FROM recording_text_state WHERE recording_id = $1 AND indexed_at IS NOT NULL',
      [id],
    );
    return rows.length > 0;
  }

  /**
   * One page of the sessions (newest first) with a matching line, and each one's position for the
   * next page's cursor. The trigram index answers the ILIKE where pg_trgm exists.
   */
  async sessions(search: TextSearch): Promise<{ rows: { row: RecordingRow; key: string }[]; more: boolean }> {
    const where: SQL[] = [gte(recordings.startedOn, search.start), lte(recordings.startedOn, search.end)];
    if (search.agentIds) where.push(search.agentIds.length ? inArray(recordings.agentId, search.agentIds) : sql`false`);
    if (search.after)
      where.push(
        sql`(${recordings.startedOn}, ${recordings.id}) < ('epoch'::timestamptz + ${search.after.startedOn}::bigint * interval '1 microsecond', ${search.after.id}::uuid)`,
      );
    where.push(
      sql`EXISTS (SELECT 1 FROM recording_text x WHERE x.recording_id = ${recordings.id}
            AND x.text ILIKE ${search.pattern} ${this.kinds(search.kinds)})`,
    );
    const rows = await this.database.db
      .select({
        row: recordings,
        key: sql<string>`(extract(epoch from ${recordings.startedOn}) * 1000000)::bigint::text`,
      })
      .from(recordings)
      .where(and(...where))
      .orderBy(desc(recordings.startedOn), desc(recordings.id))
      .limit(search.limit + 1);
    return { rows: rows.slice(0, search.limit), more: rows.length > search.limit };
  }

  /** The first `perSession` matching lines of each recording, and how many match (up to `countCap`). */
  async hits(
    ids: string[],
    pattern: string,
    kinds: TextKind[] | undefined,
    perSession: number,
    countCap: number,
  ): Promise<{ hits: TextHit[]; counts: Map<string, number>; truncated: Set<string> }> {
    if (ids.length === 0) return { hits: [], counts: new Map(), truncated: new Set() };
    const kindFilter = kinds?.length ? 'AND x.kind = ANY($5::text[])' : '';
    const params: unknown[] = [ids, pattern, perSession, countCap];
    if (kinds?.length) params.push(kinds);
    const rows = await this.database.query<{
      recording_id: string;
      t: number | null;
      kind: TextKind | null;
      text: string | null;
      n: number;
      truncated: boolean | null;
    }>(
      `SELECT ids.id AS recording_id, h.t, h.kind, h.text, c.n, s.truncated
         FROM unnest($1::uuid[]) AS ids(id)
         LEFT JOIN recording_text_state s ON s.recording_id = ids.id
         CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM (
           SELECT 1 FROM recording_text x WHERE x.recording_id = ids.id AND x.text ILIKE $2 ${kindFilter} LIMIT $4) m) c
         LEFT JOIN LATERAL (
           SELECT x.seq, x.t, x.kind, x.text FROM recording_text x
            WHERE x.recording_id = ids.id AND x.text ILIKE $2 ${kindFilter}
            ORDER BY x.seq LIMIT $3) h ON true
        ORDER BY ids.id, h.seq`,
      params,
    );
    const hits: TextHit[] = [];
    const counts = new Map<string, number>();
    const truncated = new Set<string>();
    for (const r of rows) {
      counts.set(r.recording_id, r.n);
      if (r.truncated) truncated.add(r.recording_id);
      if (r.text !== null && r.kind !== null && r.t !== null)
        hits.push({ recordingId: r.recording_id, t: Number(r.t), kind: r.kind, text: r.text });
    }
    return { hits, counts, truncated };
  }

  private kinds(kinds: TextKind[] | undefined): SQL {
    return kinds?.length
      ? sql`AND x.kind IN (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`
      : sql``;
  }
}

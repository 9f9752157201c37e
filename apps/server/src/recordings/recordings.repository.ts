import { and, desc, eq, gte, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { recordings } from '../db/schema.js';

/** A recording row. */
export type RecordingRow = typeof recordings.$inferSelect;

/** Queries on recordings (metadata only: bytes live in files). */
export class RecordingsRepository {
  constructor(private readonly db: Db) {}

  /** Starts a recording row; answers it. */
  async create(values: typeof recordings.$inferInsert): Promise<RecordingRow> {
    const [row] = await this.db.insert(recordings).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** One recording. */
  async find(id: string): Promise<RecordingRow | undefined> {
    return (await this.db.select().from(recordings).where(eq(recordings.id, id)).limit(1))[0];
  }

  /** Records progress after a flush. */
  async progress(id: string, bytes: number, chunks: number, chainHead: string): Promise<void> {
    await this.db
      .update(recordings)
      .set({ bytes, chunks, chainHead, lastFlushAt: sql`now()` })
      .where(eq(recordings.id, id));
  }

  /** Keeps a live session's heartbeat fresh while it prints nothing. */
  async heartbeat(ids: string[]): Promise<void> {
    for (const id of ids)
      await this.db
        .update(recordings)
        .set({ lastFlushAt: sql`now()` })
        .where(eq(recordings.id, id));
  }

  /** Finalises a recording. */
  async finish(id: string, values: Partial<typeof recordings.$inferInsert>): Promise<void> {
    await this.db
      .update(recordings)
      .set({ ...values, endedOn: values.endedOn ?? sql`now()` })
      .where(and(eq(recordings.id, id), isNull(recordings.endedOn)));
  }

  /** Live recordings whose instance stopped writing (it died): candidates for recovery. */
  async orphans(silentSeconds: number): Promise<RecordingRow[]> {
    return this.db
      .select()
      .from(recordings)
      .where(
        and(
          isNull(recordings.endedOn),
          lt(recordings.lastFlushAt, sql`now() - make_interval(secs => ${silentSeconds})`),
        ),
      );
  }

  /** Recordings started in a window, newest first. */
  async list(start: Date, end: Date, limit: number): Promise<RecordingRow[]> {
    return this.db
      .select()
      .from(recordings)
      .where(and(gte(recordings.startedOn, start), lte(recordings.startedOn, end)))
      .orderBy(desc(recordings.startedOn), desc(recordings.id))
      .limit(limit);
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

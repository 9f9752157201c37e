import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { rowsOf } from '../../db/rows.js';

/** Where a page ended: the entry's time as the database wrote it (microseconds kept) and its id. */
export interface AuditPosition {
  at: string;
  id: number;
}

/** The filters of the list and the export, as the repository applies them. */
export interface AuditQuery {
  actor?: string | undefined;
  action?: string | undefined;
  outcome?: string | undefined;
  target?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  q?: string | undefined;
  order: 'asc' | 'desc';
  /** The legacy id cursor of GET /api/audit?before=. */
  beforeId?: number | undefined;
}

/** A row of the trail with the text of its time, for the next cursor. */
export type AuditListRow = typeof auditLog.$inferSelect & { atText: string };

/** LIKE pattern for a substring, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The text free search looks in; the same expression as the trigram index of migration 0028, so
 * PostgreSQL answers it from that index.
 */
const searchText = sql`(coalesce(${auditLog.actor}, '') || ' ' || ${auditLog.action} || ' ' || coalesce(${auditLog.target}, '') || ' ' || coalesce(${auditLog.source}, '') || ' ' || coalesce(${auditLog.detail}::text, ''))`;

/** Reads the audit trail: filtered, by time, a keyset page at a time (the indexes of migration 0028). */
export class AuditListRepository {
  constructor(private readonly db: Db) {}

  private where(query: AuditQuery, after?: AuditPosition): SQL | undefined {
    const filters: SQL[] = [];
    if (query.actor) filters.push(sql`${auditLog.actor} ILIKE ${containsPattern(query.actor)}`);
    if (query.action) filters.push(eq(auditLog.action, query.action));
    if (query.outcome) filters.push(eq(auditLog.outcome, query.outcome));
    if (query.target) filters.push(sql`${auditLog.target} ILIKE ${containsPattern(query.target)}`);
    if (query.q) filters.push(sql`${searchText} ILIKE ${containsPattern(query.q)}`);
    if (query.from) filters.push(gte(auditLog.at, new Date(query.from)));
    if (query.to) filters.push(lt(auditLog.at, new Date(query.to)));
    if (query.beforeId !== undefined) filters.push(lt(auditLog.id, query.beforeId));
    if (after) {
      // A row comparison, so the (at, id) index serves it.
      filters.push(
        query.order === 'desc'
          ? sql`(${auditLog.at}, ${auditLog.id}) < (${after.at}::timestamptz, ${after.id})`
          : sql`(${auditLog.at}, ${auditLog.id}) > (${after.at}::timestamptz, ${after.id})`,
      );
    }
    return filters.length > 0 ? and(...filters) : undefined;
  }

  /** One page in time order after a position (or from the start). */
  async page(query: AuditQuery, limit: number, after?: AuditPosition): Promise<AuditListRow[]> {
    const direction = query.order === 'desc' ? desc : asc;
    // The legacy `before` pages by id, as it always did.
    const orderBy =
      query.beforeId !== undefined ? [desc(auditLog.id)] : [direction(auditLog.at), direction(auditLog.id)];
    return this.db
      .select({ ...allColumns, atText: sql<string>`${auditLog.at}::text` })
      .from(auditLog)
      .where(this.where(query, after))
      .orderBy(...orderBy)
      .limit(limit);
  }

  /**
   * Every distinct action, by a loose index scan over (action, id): one index probe per action, not
   * a read of the whole trail.
   */
  async actions(): Promise<string[]> {
    const result = await this.db.execute<{ action: string }>(sql`
      WITH RECURSIVE a AS (
        (SELECT action FROM audit_log ORDER BY action LIMIT 1)
        UNION ALL
        SELECT (SELECT action FROM audit_log WHERE action > a.action ORDER BY action LIMIT 1) FROM a
        WHERE a.action IS NOT NULL
      )
      SELECT action FROM a WHERE action IS NOT NULL`);
    return rowsOf<{ action: string }>(result).map((row) => row.action);
  }

  /** Entries after an id, oldest first (the SIEM streamer's read), with the database's clock. */
  async afterId(id: number, limit: number) {
    return this.db
      .select({ ...allColumns, ageMs: sql<number>`(extract(epoch from (now() - ${auditLog.at})) * 1000)::float8` })
      .from(auditLog)
      .where(sql`${auditLog.id} > ${id}`)
      .orderBy(asc(auditLog.id))
      .limit(limit);
  }

  /** How many entries follow an id (a sink's backlog). */
  async countAfter(id: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(sql`${auditLog.id} > ${id}`);
    return row?.n ?? 0;
  }

  /** The newest id (a sink enabled now starts after it). */
  async lastId(): Promise<number> {
    const [row] = await this.db.select({ id: sql<number>`coalesce(max(${auditLog.id}), 0)::float8` }).from(auditLog);
    return Number(row?.id ?? 0);
  }
}

const allColumns = {
  id: auditLog.id,
  at: auditLog.at,
  actorId: auditLog.actorId,
  actor: auditLog.actor,
  action: auditLog.action,
  target: auditLog.target,
  outcome: auditLog.outcome,
  status: auditLog.status,
  source: auditLog.source,
  detail: auditLog.detail,
};

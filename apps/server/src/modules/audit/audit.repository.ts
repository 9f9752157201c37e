import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

/** One entry to append to the audit trail. */
export interface AuditInput {
  actorId?: string | null;
  actor?: string | null;
  action: string;
  target?: string | null;
  outcome: 'success' | 'failure' | 'denied';
  status?: number | null;
  source?: string | null;
  detail?: Record<string, unknown> | null;
}

/** The append-only audit trail. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Appends an entry. */
  async append(entry: AuditInput): Promise<void> {
    await this.db.insert(auditLog).values({
      actorId: entry.actorId ?? null,
      actor: entry.actor ?? null,
      action: entry.action,
      target: entry.target ?? null,
      outcome: entry.outcome,
      status: entry.status ?? null,
      source: entry.source ?? null,
      detail: entry.detail ?? null,
    });
  }

  /** The newest entries first, optionally before an id and for one action. */
  async list(options: { limit: number; before?: number | undefined; action?: string | undefined }) {
    const filters: SQL[] = [];
    if (options.before !== undefined) filters.push(lt(auditLog.id, options.before));
    if (options.action !== undefined) filters.push(eq(auditLog.action, options.action));
    return this.db
      .select()
      .from(auditLog)
      .where(filters.length > 0 ? and(...filters) : undefined)
      .orderBy(desc(auditLog.id))
      .limit(options.limit);
  }
}

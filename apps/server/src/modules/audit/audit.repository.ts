import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { DB_PROBE_TIMING, type DatabaseHealth, isDatabaseUnavailable } from '../../db/health.js';
import { auditLog } from '../../db/schema.js';

/** How many entries are held in memory while the database is away; past it, new ones are counted as lost. */
export const AUDIT_BUFFER_LIMIT = 10_000;

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

type AuditRow = typeof auditLog.$inferInsert;

/** The driver's own message under the query layer's wrapper (which quotes the statement's parameters). */
function rootMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

/**
 * The append-only audit trail. While the database is away (health says so), entries are held in
 * memory with the time they happened, up to AUDIT_BUFFER_LIMIT, and written in order once it
 * answers again; entries past the limit are lost, and one entry written on return says how many.
 * A process that dies during the outage loses what it held (docs/RELIABILITY.md).
 */
export class AuditRepository {
  private readonly held: AuditRow[] = [];
  private lost = 0;
  private flushing: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = DB_PROBE_TIMING.firstMs;
  private lastFailure: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly health?: DatabaseHealth,
  ) {
    health?.on('up', () => void this.flush().catch(() => undefined));
  }

  /** Entries waiting for the database. */
  get pending(): number {
    return this.held.length;
  }

  /** Why the last write of held entries failed (for a test's message; never holds an entry's content). */
  get lastFlushFailure(): string | undefined {
    return this.lastFailure;
  }

  /** Appends an entry (held for later while the database is away). */
  async append(entry: AuditInput): Promise<void> {
    const row: AuditRow = {
      at: new Date(),
      actorId: entry.actorId ?? null,
      actor: entry.actor ?? null,
      action: entry.action,
      target: entry.target ?? null,
      outcome: entry.outcome,
      status: entry.status ?? null,
      source: entry.source ?? null,
      detail: entry.detail ?? null,
    };
    if (this.held.length > 0) {
      // Order is kept: while earlier entries wait, this one waits behind them.
      this.hold(row);
      if (this.health?.available) await this.flush().catch(() => undefined);
      return;
    }
    try {
      await this.db.insert(auditLog).values(row);
    } catch (error) {
      if (!this.health || !isDatabaseUnavailable(error)) throw error;
      this.health.failed(error);
      this.hold(row);
    }
  }

  /** Writes what was held, oldest first; stops at the first failure (the rest waits for the next return). */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      try {
        while (this.held.length > 0) {
          const batch = this.held.slice(0, 500);
          await this.db.insert(auditLog).values(batch);
          this.held.splice(0, batch.length);
        }
        this.retryDelayMs = DB_PROBE_TIMING.firstMs;
        this.lastFailure = undefined;
        if (this.lost > 0) {
          const lost = this.lost;
          this.lost = 0;
          await this.db.insert(auditLog).values({
            action: 'audit.lost',
            outcome: 'failure',
            detail: { entries: lost, why: 'the database was away and the in-memory buffer was full' },
          });
        }
      } catch (error) {
        this.lastFailure = rootMessage(error);
        // Marks the database down when the error says so; its return ('up') flushes again. An error
        // that does not (a connection the pool had not yet seen die, a statement timeout) would
        // otherwise leave the entries waiting for the next append: they are retried on a timer.
        this.health?.failed(error);
        this.scheduleRetry();
        throw error;
      } finally {
        this.flushing = undefined;
      }
    })();
    return this.flushing;
  }

  /** Retries held entries after a growing delay (the health probe's), while the database looks reachable. */
  private scheduleRetry(): void {
    if (this.retryTimer) return;
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(delay * 2, DB_PROBE_TIMING.maxMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.held.length === 0 && this.lost === 0) return;
      if (this.health?.stopped) return; // the server stopped: nothing more is written
      if (this.health && !this.health.available) return; // its 'up' flushes
      void this.flush().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }

  private hold(row: AuditRow): void {
    if (this.held.length >= AUDIT_BUFFER_LIMIT) this.lost += 1;
    else this.held.push(row);
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

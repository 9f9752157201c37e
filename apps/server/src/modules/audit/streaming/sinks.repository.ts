import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { auditSinks } from '../../../db/schema.js';

/** The sinks audit entries stream to. */
export const SINKS = ['syslog', 'webhook'] as const;
export type SinkName = (typeof SINKS)[number];

/** A sink's row: how far delivery got, who holds the lease, the retry schedule, the last outcome. */
export type SinkRow = typeof auditSinks.$inferSelect;

/**
 * Delivery state of each sink in SQL, shared by every instance. An instance sends only while it
 * holds the sink's lease (taken with one conditional UPDATE, so two instances never both hold it)
 * and moves delivered_id forward only while it still holds it.
 */
export class SinksRepository {
  constructor(private readonly db: Db) {}

  /** The sink's row, created (starting after `startAfter`) when it has none. */
  async ensure(sink: SinkName, startAfter: number): Promise<void> {
    await this.db.insert(auditSinks).values({ sink, deliveredId: startAfter }).onConflictDoNothing();
  }

  /** The sink's row, or undefined. */
  async get(sink: SinkName): Promise<SinkRow | undefined> {
    const [row] = await this.db.select().from(auditSinks).where(eq(auditSinks.sink, sink));
    return row;
  }

  /** Starts delivery over from after this id (a sink newly enabled), clearing errors and the schedule. */
  async restartAfter(sink: SinkName, id: number): Promise<void> {
    await this.db
      .insert(auditSinks)
      .values({ sink, deliveredId: id })
      .onConflictDoUpdate({
        target: auditSinks.sink,
        set: { deliveredId: id, attempts: 0, nextAttemptAt: null, lastError: null, lastErrorAt: null },
      });
  }

  /** Tries again at once (its settings changed: the fix should not wait out the backoff). */
  async retryNow(sink: SinkName): Promise<void> {
    await this.db.update(auditSinks).set({ nextAttemptAt: null, attempts: 0 }).where(eq(auditSinks.sink, sink));
  }

  /**
   * Takes the sink's lease for `seconds` when nobody holds it and no retry is scheduled later;
   * answers the row when taken.
   */
  async lease(sink: SinkName, owner: string, seconds: number): Promise<SinkRow | undefined> {
    const [row] = await this.db
      .update(auditSinks)
      .set({ leaseOwner: owner, leaseUntil: sql`now() + make_interval(secs => ${seconds})` })
      .where(
        and(
          eq(auditSinks.sink, sink),
          sql`(${auditSinks.leaseUntil} IS NULL OR ${auditSinks.leaseUntil} < now())`,
          sql`(${auditSinks.nextAttemptAt} IS NULL OR ${auditSinks.nextAttemptAt} <= now())`,
        ),
      )
      .returning();
    return row;
  }

  /** Records a delivery through `id` and gives the lease back; false when the lease was lost meanwhile. */
  async delivered(sink: SinkName, owner: string, id: number): Promise<boolean> {
    const rows = await this.db
      .update(auditSinks)
      .set({
        deliveredId: sql`greatest(${auditSinks.deliveredId}, ${id})`,
        lastDeliveryAt: sql`now()`,
        attempts: 0,
        nextAttemptAt: null,
        leaseOwner: null,
        leaseUntil: null,
      })
      .where(and(eq(auditSinks.sink, sink), eq(auditSinks.leaseOwner, owner)))
      .returning({ sink: auditSinks.sink });
    return rows.length > 0;
  }

  /** Records a failure, schedules the next attempt after `retryMs` and gives the lease back. */
  async failed(sink: SinkName, owner: string, error: string, retryMs: number): Promise<void> {
    await this.db
      .update(auditSinks)
      .set({
        attempts: sql`${auditSinks.attempts} + 1`,
        lastError: error,
        lastErrorAt: sql`now()`,
        nextAttemptAt: sql`now() + make_interval(secs => ${retryMs / 1000})`,
        leaseOwner: null,
        leaseUntil: null,
      })
      .where(and(eq(auditSinks.sink, sink), eq(auditSinks.leaseOwner, owner)));
  }

  /** Gives the lease back without recording anything (nothing was due). */
  async release(sink: SinkName, owner: string): Promise<void> {
    await this.db
      .update(auditSinks)
      .set({ leaseOwner: null, leaseUntil: null })
      .where(and(eq(auditSinks.sink, sink), eq(auditSinks.leaseOwner, owner)));
  }
}

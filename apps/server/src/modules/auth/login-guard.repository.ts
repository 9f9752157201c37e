import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { loginFailures, rateLimits } from '../../db/schema.js';

/**
 * Counters behind the sign-in guards, kept in the database so every server instance sharing it
 * sees the same counts.
 */
export class LoginGuardRepository {
  constructor(private readonly db: Db) {}

  /** Counts one hit in a fixed window; returns the count so far and when the window started. */
  async hit(key: string, windowSeconds: number): Promise<{ count: number; windowStart: Date }> {
    const expired = sql`${rateLimits.windowStart} < now() - make_interval(secs => ${windowSeconds})`;
    const rows = await this.db
      .insert(rateLimits)
      .values({ key, windowStart: sql`now()`, count: 1 })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
          windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateLimits.windowStart} END`,
        },
      })
      .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
    const row = rows[0];
    if (!row) throw new Error('rate limit upsert returned no row');
    return row;
  }

  /** When the email is locked, until when. */
  async lockedUntil(emailKey: string): Promise<Date | undefined> {
    const rows = await this.db
      .select({ until: loginFailures.lockedUntil })
      .from(loginFailures)
      .where(and(eq(loginFailures.emailKey, emailKey), gt(loginFailures.lockedUntil, sql`now()`)))
      .limit(1);
    return rows[0]?.until ?? undefined;
  }

  /**
   * Counts a failed sign-in for the email. Failures older than the lock period are forgotten; at
   * the threshold the email is locked for the lock period and the count starts again.
   */
  async recordFailure(emailKey: string, threshold: number, lockMinutes: number): Promise<boolean> {
    const stale = sql`${loginFailures.lastFailureAt} < now() - make_interval(mins => ${lockMinutes})`;
    const rows = await this.db
      .insert(loginFailures)
      .values({ emailKey, failures: 1 })
      .onConflictDoUpdate({
        target: loginFailures.emailKey,
        set: {
          failures: sql`CASE WHEN ${stale} THEN 1 ELSE ${loginFailures.failures} + 1 END`,
          lastFailureAt: sql`now()`,
        },
      })
      .returning({ failures: loginFailures.failures });
    if ((rows[0]?.failures ?? 0) < threshold) return false;
    await this.db
      .update(loginFailures)
      .set({ failures: 0, lockedUntil: sql`now() + make_interval(mins => ${lockMinutes})` })
      .where(eq(loginFailures.emailKey, emailKey));
    return true;
  }

  /** Forgets the failures of an email after a successful sign-in. */
  async clearFailures(emailKey: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.emailKey, emailKey));
  }
}

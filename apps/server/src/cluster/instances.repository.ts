import { and, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { serverInstances } from '../db/schema.js';

/** Queries on the server_instances table (migration 0017). */
export class InstancesRepository {
  constructor(private readonly db: Db) {}

  /** Adds a running instance. */
  async register(id: string, host: string, pid: number): Promise<void> {
    await this.db.insert(serverInstances).values({ id, host, pid });
  }

  /**
   * Beats an instance's row; answers the database's time when it is still counted alive, and
   * undefined when another instance already marked it gone (or its row is missing).
   */
  async beat(id: string): Promise<Date | undefined> {
    const rows = await this.db
      .update(serverInstances)
      .set({ beatAt: sql`now()` })
      .where(and(eq(serverInstances.id, id), isNull(serverInstances.goneAt)))
      .returning({ at: serverInstances.beatAt });
    return rows[0]?.at;
  }

  /** Records where the other instances reach this one for relays (migration 0022). */
  async advertise(id: string, url: string): Promise<void> {
    await this.db.update(serverInstances).set({ advertiseUrl: url }).where(eq(serverInstances.id, id));
  }

  /** Marks one instance gone (it stops). */
  async markGone(id: string): Promise<void> {
    await this.db
      .update(serverInstances)
      .set({ goneAt: sql`now()` })
      .where(and(eq(serverInstances.id, id), isNull(serverInstances.goneAt)));
  }

  /**
   * Marks gone the instances silent for more than `silentSeconds`, but only while `healthySince`
   * (when this instance's own beats began to succeed without a gap) is at least as old: after an
   * outage of the database, everyone's beat is stale, and nobody is declared gone until each had
   * the time to beat again. Answers the ids marked (each by exactly one caller).
   */
  async markSilentGone(self: string, silentSeconds: number, healthySince: Date): Promise<string[]> {
    const rows = await this.db
      .update(serverInstances)
      .set({ goneAt: sql`now()` })
      .where(
        and(
          isNull(serverInstances.goneAt),
          ne(serverInstances.id, self),
          lt(serverInstances.beatAt, sql`now() - make_interval(secs => ${silentSeconds})`),
          sql`${healthySince.toISOString()}::timestamptz <= now() - make_interval(secs => ${silentSeconds})`,
        ),
      )
      .returning({ id: serverInstances.id });
    return rows.map((r) => r.id);
  }

  /**
   * Marks gone every other instance that is not running: all of them when `exclusive` (one
   * process owns the embedded database's folder), else those of this host (and pid namespace)
   * that `isAlive` says are not running. Answers their ids.
   */
  async markPredecessorsGone(
    self: { id: string; host: string; pid: number },
    exclusive: boolean,
    isAlive: (id: string, pid: number) => boolean,
  ): Promise<string[]> {
    const others = await this.db
      .select({ id: serverInstances.id, host: serverInstances.host, pid: serverInstances.pid })
      .from(serverInstances)
      .where(and(isNull(serverInstances.goneAt), ne(serverInstances.id, self.id)));
    const gone: string[] = [];
    for (const other of others) {
      if (!exclusive && (other.host !== self.host || isAlive(other.id, other.pid))) continue;
      const marked = await this.db
        .update(serverInstances)
        .set({ goneAt: sql`now()` })
        .where(and(eq(serverInstances.id, other.id), isNull(serverInstances.goneAt)))
        .returning({ id: serverInstances.id });
      if (marked.length > 0) gone.push(other.id);
    }
    return gone;
  }

  /** Forgets instances gone for more than a day (their recordings were recovered long before). */
  async prune(): Promise<void> {
    await this.db.delete(serverInstances).where(lt(serverInstances.goneAt, sql`now() - interval '1 day'`));
  }
}

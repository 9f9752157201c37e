import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { agents } from '../../db/schema.js';

/** Seconds without a heartbeat after which an agent counts as disconnected. */
export const CONNECTED_WITHIN_SECONDS = 15;

/** True when an agent was heard from recently: every instance agrees through the database. */
const liveConnected = sql<boolean>`(${agents.connected} AND ${agents.lastSeenAt} > now() - make_interval(secs => ${CONNECTED_WITHIN_SECONDS}))`;

/** Queries on agents. */
export class AgentsRepository {
  constructor(private readonly db: Db) {}

  private select() {
    return this.db
      .select({
        id: agents.id,
        hostname: agents.hostname,
        os: agents.os,
        version: agents.version,
        connected: liveConnected,
        lastSeenAt: agents.lastSeenAt,
        createdAt: agents.createdAt,
        config: agents.config,
      })
      .from(agents);
  }

  /** Every agent, by hostname, then connected first. */
  async list() {
    return this.select().orderBy(asc(sql`lower(${agents.hostname})`), desc(liveConnected), asc(agents.id));
  }

  /** One agent, if it exists. */
  async find(id: string) {
    return (await this.select().where(eq(agents.id, id)).limit(1))[0];
  }

  /** The agent holding this credential hash, if any. */
  async findByCredential(id: string, credentialHash: string) {
    return (
      await this.select()
        .where(and(eq(agents.id, id), eq(agents.credentialHash, credentialHash)))
        .limit(1)
    )[0];
  }

  /** Enrols an agent. */
  async create(input: {
    hostname: string;
    os: number;
    version: string;
    credentialHash: string;
    config: unknown;
    registeredWith: string;
  }) {
    const [row] = await this.db.insert(agents).values(input).returning({ id: agents.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** Stores a new config. */
  async setConfig(id: string, config: unknown): Promise<void> {
    await this.db.update(agents).set({ config }).where(eq(agents.id, id));
  }

  /**
   * Marks an agent connected now, with the OS and version it reports. Its host name is not among
   * them: that was fixed at enrolment and the agent cannot change it.
   */
  async markConnected(id: string, hello: { os: number; version: string }): Promise<void> {
    await this.db
      .update(agents)
      .set({ os: hello.os, version: hello.version, connected: true, lastSeenAt: sql`now()` })
      .where(eq(agents.id, id));
  }

  /** Heartbeat of the agents connected to this instance. */
  async touch(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(agents)
      .set({ lastSeenAt: sql`now()` })
      .where(inArray(agents.id, ids));
  }

  /** Marks an agent disconnected. */
  async markDisconnected(id: string): Promise<void> {
    await this.db.update(agents).set({ connected: false }).where(eq(agents.id, id));
  }

  /** Deletes an agent and with it its credential; answers whether it existed. */
  async delete(id: string): Promise<boolean> {
    return (await this.db.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id })).length > 0;
  }

  /** How many agents exist, and how many are connected. */
  async counts(): Promise<{ total: number; connected: number }> {
    const [total] = await this.db.select({ n: count() }).from(agents);
    const [live] = await this.db.select({ n: count() }).from(agents).where(liveConnected);
    return { total: total?.n ?? 0, connected: live?.n ?? 0 };
  }

  /** Agents that say connected but have been silent too long (their instance died). */
  async silentIds(): Promise<string[]> {
    const rows = await this.db
      .select({ id: agents.id })
      .from(agents)
      .where(
        and(
          eq(agents.connected, true),
          sql`${agents.lastSeenAt} <= now() - make_interval(secs => ${CONNECTED_WITHIN_SECONDS})`,
        ),
      );
    return rows.map((r) => r.id);
  }
}

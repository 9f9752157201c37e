import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { agents, recordings, serverInstances } from '../../db/schema.js';

/** Seconds without a heartbeat after which an agent counts as disconnected. */
export const CONNECTED_WITHIN_SECONDS = 15;
/** An instance that beat this recently still answers (it beats every 2 s). */
export const INSTANCE_ANSWERS_WITHIN_SECONDS = 5;
/**
 * An agent whose server instance went away reads 'reconnecting' this long after a server was
 * back to take it (agents come back within seconds: their backoff is capped at 5 s).
 */
export const RECONNECTING_WITHIN_SECONDS = 60;

/** Its instance runs and beats: what it says about its agents is current. */
const instanceAnswers = sql<boolean>`(${serverInstances.goneAt} IS NULL AND ${serverInstances.beatAt} > now() - make_interval(secs => ${INSTANCE_ANSWERS_WITHIN_SECONDS}))`;

/** Connected to an instance that answers, and heard from recently: every instance agrees through the database. */
const liveConnected = sql<boolean>`coalesce(${agents.connected} AND ${agents.lastSeenAt} > now() - make_interval(secs => ${CONNECTED_WITHIN_SECONDS}) AND ${instanceAnswers}, false)`;

/**
 * Connected when its instance stopped or was lost (not by its own doing), and within the window
 * that began when the instance went (or when the oldest running instance started, if later).
 */
const reconnecting = sql<boolean>`coalesce(${agents.connected} AND NOT coalesce(${instanceAnswers}, false) AND greatest(
  ${serverInstances.goneAt}, ${serverInstances.beatAt}, ${agents.lastSeenAt},
  (SELECT min(started_at) FROM server_instances WHERE gone_at IS NULL)
) > now() - make_interval(secs => ${RECONNECTING_WITHIN_SECONDS}), false)`;

/** The state the contract's Agent answers. */
const state = sql<
  'connected' | 'reconnecting' | 'disconnected'
>`(CASE WHEN ${liveConnected} THEN 'connected' WHEN ${reconnecting} THEN 'reconnecting' ELSE 'disconnected' END)`;

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
        state,
        lastSeenAt: agents.lastSeenAt,
        createdAt: agents.createdAt,
        config: agents.config,
        // RDP sessions being filmed now (issue 18; the partial index recordings_filming_idx answers it).
        filming: sql<number>`(SELECT count(*)::int FROM ${recordings} WHERE ${recordings.agentId} = ${agents.id} AND ${recordings.videoState} = 'filming' AND ${recordings.endedOn} IS NULL)`,
        captureError: agents.captureError,
        captureErrorAt: agents.captureErrorAt,
      })
      .from(agents)
      .leftJoin(serverInstances, eq(serverInstances.id, agents.instanceId));
  }

  /** Every agent, by hostname, then connected first. */
  async list() {
    return this.select().orderBy(asc(sql`lower(${agents.hostname})`), desc(liveConnected), asc(agents.id));
  }

  /** One agent, if it exists. */
  async find(id: string) {
    return (await this.select().where(eq(agents.id, id)).limit(1))[0];
  }

  /**
   * The running instance holding the agent's socket and its advertised URL (migration 0022), while
   * the agent counts as connected.
   */
  async holder(id: string): Promise<{ instanceId: string; url: string | null } | undefined> {
    const rows = await this.db
      .select({ instanceId: serverInstances.id, url: serverInstances.advertiseUrl })
      .from(agents)
      .innerJoin(serverInstances, eq(serverInstances.id, agents.instanceId))
      .where(and(eq(agents.id, id), liveConnected))
      .limit(1);
    return rows[0];
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
  async markConnected(id: string, hello: { os: number; version: string }, instanceId: string): Promise<void> {
    await this.db
      .update(agents)
      .set({ os: hello.os, version: hello.version, connected: true, lastSeenAt: sql`now()`, instanceId })
      .where(eq(agents.id, id));
  }

  /** Heartbeat of the agents connected to this instance (which holds them, under its current id). */
  async touch(ids: string[], instanceId: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(agents)
      .set({ lastSeenAt: sql`now()`, instanceId })
      .where(and(inArray(agents.id, ids), eq(agents.connected, true)));
  }

  /** Agents held by these instances (gone): their state now reads 'reconnecting'. */
  async heldBy(instanceIds: string[]): Promise<string[]> {
    if (instanceIds.length === 0) return [];
    const rows = await this.db
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.connected, true), inArray(agents.instanceId, instanceIds)));
    return rows.map((r) => r.id);
  }

  /**
   * Marks an agent disconnected; with `instanceId`, only while that instance holds it (an agent
   * that already reconnected to another instance stays connected there).
   */
  async markDisconnected(id: string, instanceId?: string): Promise<void> {
    await this.db
      .update(agents)
      .set({ connected: false })
      .where(instanceId ? and(eq(agents.id, id), eq(agents.instanceId, instanceId)) : eq(agents.id, id));
  }

  /** Deletes an agent and with it its credential; answers whether it existed. */
  async delete(id: string): Promise<boolean> {
    return (await this.db.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id })).length > 0;
  }

  /** How many agents exist, and how many are connected. */
  async counts(): Promise<{ total: number; connected: number }> {
    const [total] = await this.db.select({ n: count() }).from(agents);
    const [live] = await this.db
      .select({ n: count() })
      .from(agents)
      .leftJoin(serverInstances, eq(serverInstances.id, agents.instanceId))
      .where(liveConnected);
    return { total: total?.n ?? 0, connected: live?.n ?? 0 };
  }

  /**
   * Agents still flagged connected whose state reads 'disconnected' (silent on a live instance,
   * or not back within the reconnecting window): the flag is cleared so lists and counts agree.
   */
  async staleIds(): Promise<string[]> {
    const rows = await this.db
      .select({ id: agents.id })
      .from(agents)
      .leftJoin(serverInstances, eq(serverInstances.id, agents.instanceId))
      .where(and(eq(agents.connected, true), sql`NOT ${liveConnected}`, sql`NOT ${reconnecting}`));
    return rows.map((r) => r.id);
  }
}

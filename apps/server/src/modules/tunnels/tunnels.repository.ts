import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { agents, tunnelDefinitionAgents, tunnelDefinitionUsers, tunnelDefinitions } from '../../db/schema.js';

/** A definition row with its host name. */
export type TunnelRow = typeof tunnelDefinitions.$inferSelect & { hostname: string };

/** A definition with who may use it. */
export interface TunnelWithMembers extends TunnelRow {
  users: string[];
  agents: { id: string; hostname: string }[];
}

/** Queries on tunnel definitions. */
export class TunnelsRepository {
  constructor(private readonly db: Db) {}

  private async withMembers(rows: TunnelRow[]): Promise<TunnelWithMembers[]> {
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return [];
    const [users, allowed] = await Promise.all([
      this.db.select().from(tunnelDefinitionUsers).where(inArray(tunnelDefinitionUsers.definitionId, ids)),
      this.db
        .select({ definitionId: tunnelDefinitionAgents.definitionId, id: agents.id, hostname: agents.hostname })
        .from(tunnelDefinitionAgents)
        .innerJoin(agents, eq(agents.id, tunnelDefinitionAgents.agentId))
        .where(inArray(tunnelDefinitionAgents.definitionId, ids))
        .orderBy(asc(agents.hostname)),
    ]);
    return rows.map((r) => ({
      ...r,
      users: users.filter((u) => u.definitionId === r.id).map((u) => u.userId),
      agents: allowed.filter((a) => a.definitionId === r.id).map((a) => ({ id: a.id, hostname: a.hostname })),
    }));
  }

  private base() {
    return this.db
      .select({ ...tableColumns(), hostname: agents.hostname })
      .from(tunnelDefinitions)
      .innerJoin(agents, eq(agents.id, tunnelDefinitions.agentId));
  }

  /** Every definition, by name. */
  async listAll(): Promise<TunnelWithMembers[]> {
    return this.withMembers(await this.base().orderBy(asc(sql`lower(${tunnelDefinitions.name})`)));
  }

  /** Definitions a user reaches: named directly, or through a group they belong to (nesting included). */
  async listReachable(userId: string, groups: string[]): Promise<TunnelWithMembers[]> {
    const direct = this.db
      .select({ id: tunnelDefinitionUsers.definitionId })
      .from(tunnelDefinitionUsers)
      .where(eq(tunnelDefinitionUsers.userId, userId));
    const reach =
      groups.length > 0
        ? or(inArray(tunnelDefinitions.id, direct), inArray(tunnelDefinitions.groupName, groups))
        : inArray(tunnelDefinitions.id, direct);
    return this.withMembers(
      await this.base()
        .where(reach)
        .orderBy(asc(sql`lower(${tunnelDefinitions.name})`)),
    );
  }

  /** One definition. */
  async find(id: string): Promise<TunnelWithMembers | undefined> {
    return (await this.withMembers(await this.base().where(eq(tunnelDefinitions.id, id)).limit(1)))[0];
  }

  /** Creates a definition; answers its id. */
  async create(values: typeof tunnelDefinitions.$inferInsert): Promise<string> {
    const [row] = await this.db.insert(tunnelDefinitions).values(values).returning({ id: tunnelDefinitions.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** Changes a definition. */
  async update(id: string, values: Partial<typeof tunnelDefinitions.$inferInsert>): Promise<void> {
    await this.db
      .update(tunnelDefinitions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(tunnelDefinitions.id, id));
  }

  /** Deletes a definition; answers whether it existed. */
  async delete(id: string): Promise<boolean> {
    return (
      (
        await this.db
          .delete(tunnelDefinitions)
          .where(eq(tunnelDefinitions.id, id))
          .returning({ id: tunnelDefinitions.id })
      ).length > 0
    );
  }

  /** Replaces the users admitted directly, in one transaction. */
  async setUsers(id: string, userIds: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(tunnelDefinitionUsers).where(eq(tunnelDefinitionUsers.definitionId, id));
      if (userIds.length > 0)
        await tx.insert(tunnelDefinitionUsers).values(userIds.map((userId) => ({ definitionId: id, userId })));
    });
  }

  /** Replaces the agents that may open the tunnel, in one transaction. */
  async setAgents(id: string, agentIds: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(tunnelDefinitionAgents).where(eq(tunnelDefinitionAgents.definitionId, id));
      if (agentIds.length > 0)
        await tx.insert(tunnelDefinitionAgents).values(agentIds.map((agentId) => ({ definitionId: id, agentId })));
    });
  }

  /** Pins the target's SSH host key on first use (only when none is pinned yet). */
  async pinHostKey(id: string, hostKey: string): Promise<void> {
    await this.db
      .update(tunnelDefinitions)
      .set({ hostKey })
      .where(and(eq(tunnelDefinitions.id, id), isNull(tunnelDefinitions.hostKey)));
  }

  /** The ssh definitions for a host name, with who may use them. */
  async sshForHost(hostname: string): Promise<TunnelWithMembers[]> {
    const rows = await this.base()
      .where(and(eq(tunnelDefinitions.type, 'ssh'), sql`lower(${agents.hostname}) = ${hostname.toLowerCase()}`))
      .orderBy(asc(sql`lower(${tunnelDefinitions.name})`));
    return this.withMembers(rows);
  }

  /** How many definitions exist. */
  async count(): Promise<number> {
    return (await this.db.select({ n: count() }).from(tunnelDefinitions))[0]?.n ?? 0;
  }
}

function tableColumns() {
  const t = tunnelDefinitions;
  return {
    id: t.id,
    type: t.type,
    name: t.name,
    agentId: t.agentId,
    port: t.port,
    groupName: t.groupName,
    sshLogin: t.sshLogin,
    sshAuth: t.sshAuth,
    credentialSealed: t.credentialSealed,
    publicKey: t.publicKey,
    allowPortForwarding: t.allowPortForwarding,
    hostKey: t.hostKey,
    unfilmedRdp: t.unfilmedRdp,
    rdpClipboard: t.rdpClipboard,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

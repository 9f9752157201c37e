import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { agents, groupAgents, groupGroups, groupUsers, groups, users } from '../../db/schema.js';
import { rowsOf } from '../../db/rows.js';

// Any constant: nesting changes take this lock so two of them cannot make a cycle together.
const NESTING_LOCK_ID = 727_002;

/** A group with its direct members. */
export interface GroupRow {
  name: string;
  createdAt: Date;
  users: string[];
  agents: { id: string; hostname: string }[];
  groups: string[];
}

/** Queries on groups, their members and their nesting. */
export class GroupsRepository {
  constructor(private readonly db: Db) {}

  /** Every group with its direct members, sorted by name without regard to case. */
  async list(): Promise<GroupRow[]> {
    const [all, members, hosts, children] = await Promise.all([
      this.db
        .select()
        .from(groups)
        .orderBy(asc(sql`lower(${groups.name})`), asc(groups.name)),
      this.db
        .select({ group: groupUsers.groupName, email: users.email })
        .from(groupUsers)
        .innerJoin(users, eq(users.id, groupUsers.userId))
        .orderBy(asc(users.email)),
      this.db
        .select({ group: groupAgents.groupName, id: agents.id, hostname: agents.hostname })
        .from(groupAgents)
        .innerJoin(agents, eq(agents.id, groupAgents.agentId))
        .orderBy(asc(agents.hostname)),
      this.db
        .select()
        .from(groupGroups)
        .orderBy(asc(sql`lower(${groupGroups.child})`)),
    ]);
    return all.map((g) => ({
      name: g.name,
      createdAt: g.createdAt,
      users: members.filter((m) => m.group === g.name).map((m) => m.email),
      agents: hosts.filter((h) => h.group === g.name).map((h) => ({ id: h.id, hostname: h.hostname })),
      groups: children.filter((c) => c.parent === g.name).map((c) => c.child),
    }));
  }

  /** One group, if it exists. */
  async find(name: string): Promise<GroupRow | undefined> {
    return (await this.list()).find((g) => g.name === name);
  }

  /** True when the group exists. */
  async exists(name: string): Promise<boolean> {
    return (await this.db.select({ n: groups.name }).from(groups).where(eq(groups.name, name)).limit(1)).length > 0;
  }

  /** Creates a group; throws a unique violation when the name exists in any case. */
  async create(name: string): Promise<void> {
    await this.db.insert(groups).values({ name });
  }

  /** Deletes a group; answers whether it existed. */
  async delete(name: string): Promise<boolean> {
    return (await this.db.delete(groups).where(eq(groups.name, name)).returning({ n: groups.name })).length > 0;
  }

  /** Adds users; answers how many were new. */
  async addUsers(name: string, userIds: string[]): Promise<number> {
    const rows = await this.db
      .insert(groupUsers)
      .values(userIds.map((userId) => ({ groupName: name, userId })))
      .onConflictDoNothing()
      .returning({ u: groupUsers.userId });
    return rows.length;
  }

  /** Removes a user; answers whether they were a member. */
  async removeUser(name: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(groupUsers)
      .where(and(eq(groupUsers.groupName, name), eq(groupUsers.userId, userId)))
      .returning({ u: groupUsers.userId });
    return rows.length > 0;
  }

  /** Agents with these ids that exist. */
  async existingAgents(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return (await this.db.select({ id: agents.id }).from(agents).where(inArray(agents.id, ids))).map((a) => a.id);
  }

  /** Adds agents; answers how many were new. */
  async addAgents(name: string, agentIds: string[]): Promise<number> {
    const rows = await this.db
      .insert(groupAgents)
      .values(agentIds.map((agentId) => ({ groupName: name, agentId })))
      .onConflictDoNothing()
      .returning({ a: groupAgents.agentId });
    return rows.length;
  }

  /** Removes an agent; answers whether it was in the group. */
  async removeAgent(name: string, agentId: string): Promise<boolean> {
    const rows = await this.db
      .delete(groupAgents)
      .where(and(eq(groupAgents.groupName, name), eq(groupAgents.agentId, agentId)))
      .returning({ a: groupAgents.agentId });
    return rows.length > 0;
  }

  /**
   * Nests children in a parent, in one transaction under a lock. Before each edge it checks the
   * graph; `findCycle` answers the path that the edge would close, or undefined.
   */
  async addChildren(
    parent: string,
    children: string[],
    findCycle: (edges: { parent: string; child: string }[], parent: string, child: string) => string[] | undefined,
  ): Promise<{ added: number; cycle?: string[] }> {
    try {
      return await this.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${NESTING_LOCK_ID})`);
        const edges = await tx.select().from(groupGroups);
        let added = 0;
        for (const child of children) {
          const cycle = findCycle(edges, parent, child);
          if (cycle) throw new CycleFound(cycle); // rolls back every edge of this call
          const rows = await tx
            .insert(groupGroups)
            .values({ parent, child })
            .onConflictDoNothing()
            .returning({ c: groupGroups.child });
          if (rows.length > 0) {
            added += 1;
            edges.push({ parent, child });
          }
        }
        return { added };
      });
    } catch (error) {
      if (error instanceof CycleFound) return { added: 0, cycle: error.cycle };
      throw error;
    }
  }

  /** Takes a child group out of a parent; answers whether it was nested there. */
  async removeChild(parent: string, child: string): Promise<boolean> {
    const rows = await this.db
      .delete(groupGroups)
      .where(and(eq(groupGroups.parent, parent), eq(groupGroups.child, child)))
      .returning({ c: groupGroups.child });
    return rows.length > 0;
  }

  /** Every group the user belongs to, directly or through nesting. */
  async memberships(userId: string): Promise<string[]> {
    const rows = await this.db.execute<{ name: string }>(sql`
      WITH RECURSIVE member_of(name) AS (
        SELECT group_name FROM group_users WHERE user_id = ${userId}
        UNION
        SELECT gg.parent FROM group_groups gg JOIN member_of m ON gg.child = m.name
      )
      SELECT name FROM member_of ORDER BY lower(name)`);
    return rowsOf<{ name: string }>(rows).map((r) => r.name);
  }

  /** Agents in any of these groups, with the groups that hold each. */
  async agentsOf(groupNames: string[]) {
    if (groupNames.length === 0) return [];
    return this.db
      .select({ id: agents.id, hostname: agents.hostname, group: groupAgents.groupName })
      .from(groupAgents)
      .innerJoin(agents, eq(agents.id, groupAgents.agentId))
      .where(inArray(groupAgents.groupName, groupNames))
      .orderBy(asc(agents.hostname));
  }

  /** How many groups exist. */
  async count(): Promise<number> {
    return (await this.db.select({ n: count() }).from(groups))[0]?.n ?? 0;
  }
}

class CycleFound extends Error {
  constructor(readonly cycle: string[]) {
    super('cycle');
  }
}

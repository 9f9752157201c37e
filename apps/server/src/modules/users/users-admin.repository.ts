import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, userRoles, users } from '../../db/schema.js';

/** A user with role and group names, as lists show them. */
export interface UserListRow {
  id: string;
  email: string;
  name: string | null;
  createdAt: Date;
  roles: string[];
  groups: string[];
}

/** Options of a user list query. */
export interface UserListOptions {
  q?: string | undefined;
  sort?: 'email' | 'name' | 'created_at' | undefined;
  order: 'asc' | 'desc';
  offset: number;
  limit?: number | undefined;
  onlyUserId?: string | undefined;
}

/** Escapes LIKE wildcards so searched text matches itself. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Queries behind user administration. */
export class UsersAdminRepository {
  constructor(private readonly db: Db) {}

  /** One page (or all) of users with their role and group names, and the number of matches. */
  async list(options: UserListOptions): Promise<{ rows: UserListRow[]; total: number }> {
    const filters: SQL[] = [];
    if (options.onlyUserId) filters.push(eq(users.id, options.onlyUserId));
    if (options.q) {
      const pattern = likePattern(options.q);
      const match = or(ilike(users.email, pattern), ilike(users.name, pattern));
      if (match) filters.push(match);
    }
    const where = filters.length > 0 ? and(...filters) : undefined;
    const direction = options.order === 'desc' ? desc : asc;
    const sortColumn =
      options.sort === 'name'
        ? sql`lower(coalesce(${users.name}, ''))`
        : options.sort === 'created_at'
          ? users.createdAt
          : users.email;
    const query = this.db
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        createdAt: users.createdAt,
        roles: sql<
          string[]
        >`coalesce((SELECT array_agg(ur.role_name ORDER BY ur.role_name) FROM user_roles ur WHERE ur.user_id = ${users.id}), '{}')`,
        groups: sql<
          string[]
        >`coalesce((SELECT array_agg(gu.group_name ORDER BY lower(gu.group_name)) FROM group_users gu WHERE gu.user_id = ${users.id}), '{}')`,
      })
      .from(users)
      .where(where)
      .orderBy(direction(sortColumn), direction(users.email))
      .offset(options.offset);
    const rows = options.limit !== undefined ? await query.limit(options.limit) : await query;
    const totalRows = await this.db.select({ n: count() }).from(users).where(where);
    return { rows, total: totalRows[0]?.n ?? 0 };
  }

  /** Users with these emails. */
  async findByEmails(emails: string[]) {
    if (emails.length === 0) return [];
    return this.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails));
  }

  /** The one user whose email's local part is this (gateway logins like `alice@web-01`). */
  async findByLocalPart(local: string) {
    const rows = await this.db
      .select()
      .from(users)
      .where(ilike(users.email, `${likePattern(local).slice(0, -1).replace(/^%/, '')}@%`))
      .limit(2);
    return rows.length === 1 ? rows[0] : undefined;
  }

  /** Which of these user ids exist. */
  async existingIds(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return (await this.db.select({ id: users.id }).from(users).where(inArray(users.id, ids))).map((u) => u.id);
  }

  /** Deletes a user unless they are the last holder of the role given; answers false when refused. */
  async deleteKeepingHolder(userId: string, protectedRole: string): Promise<'deleted' | 'last-holder'> {
    return this.db.transaction(async (tx) => {
      // Lock the role row so two removals cannot both see a second holder.
      await tx.execute(sql`SELECT 1 FROM ${roles} WHERE ${roles.name} = ${protectedRole} FOR UPDATE`);
      const held = await tx
        .select({ n: count() })
        .from(userRoles)
        .where(and(eq(userRoles.roleName, protectedRole), eq(userRoles.userId, userId)));
      if ((held[0]?.n ?? 0) > 0) {
        const holders = await tx.select({ n: count() }).from(userRoles).where(eq(userRoles.roleName, protectedRole));
        if ((holders[0]?.n ?? 0) <= 1) return 'last-holder';
      }
      await tx.delete(users).where(eq(users.id, userId));
      return 'deleted';
    });
  }

  /** Removes a role from a user unless that leaves the protected role without holders. */
  async removeRoleKeepingHolder(
    userId: string,
    roleName: string,
    protectedRole: string,
  ): Promise<'removed' | 'not-held' | 'last-holder'> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 FROM ${roles} WHERE ${roles.name} = ${roleName} FOR UPDATE`);
      if (roleName === protectedRole) {
        const holders = await tx.select({ n: count() }).from(userRoles).where(eq(userRoles.roleName, roleName));
        const held = await tx
          .select({ n: count() })
          .from(userRoles)
          .where(and(eq(userRoles.roleName, roleName), eq(userRoles.userId, userId)));
        if ((held[0]?.n ?? 0) > 0 && (holders[0]?.n ?? 0) <= 1) return 'last-holder';
      }
      const removed = await tx
        .delete(userRoles)
        .where(and(eq(userRoles.userId, userId), eq(userRoles.roleName, roleName)))
        .returning({ u: userRoles.userId });
      return removed.length > 0 ? 'removed' : 'not-held';
    });
  }
}

import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rolePermissions, userRoles, users } from '../../db/schema.js';

/** A user row as the services need it. */
export type UserRow = typeof users.$inferSelect;

/** A role with its permissions, as attached to a user. */
export interface RoleWithPermissions {
  name: string;
  permissions: string[];
}

/** Queries on users and their roles. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  /** The user with this email (compared lower-case), if any. */
  async findByEmail(email: string): Promise<UserRow | undefined> {
    const rows = await this.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
    return rows[0];
  }

  /** The user with this id, if any. */
  async findById(id: string): Promise<UserRow | undefined> {
    return (await this.db.select().from(users).where(eq(users.id, id)).limit(1))[0];
  }

  /** How many users exist. */
  async count(): Promise<number> {
    const rows = await this.db.select({ n: count() }).from(users);
    return rows[0]?.n ?? 0;
  }

  /** Creates a user holding the given roles, in one transaction. */
  async create(
    input: { email: string; name: string | null; passwordHash: string | null; emailVerified?: boolean },
    roleNames: string[],
  ) {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          email: input.email.toLowerCase(),
          name: input.name,
          passwordHash: input.passwordHash,
          emailVerified: input.emailVerified ?? true,
        })
        .returning();
      if (!row) throw new Error('insert returned no row');
      if (roleNames.length > 0) {
        await tx.insert(userRoles).values(roleNames.map((roleName) => ({ userId: row.id, roleName })));
      }
      return row;
    });
  }

  /** Replaces the user's password hash. */
  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
  }

  /** The user's roles with their permissions, by role name. */
  async rolesOf(userId: string): Promise<RoleWithPermissions[]> {
    const held = await this.db
      .select({ name: userRoles.roleName })
      .from(userRoles)
      .where(eq(userRoles.userId, userId))
      .orderBy(asc(userRoles.roleName));
    const names = held.map((r) => r.name);
    if (names.length === 0) return [];
    const perms = await this.db
      .select()
      .from(rolePermissions)
      .where(inArray(rolePermissions.roleName, names))
      .orderBy(asc(rolePermissions.permission));
    return names.map((name) => ({
      name,
      permissions: perms.filter((p) => p.roleName === name).map((p) => p.permission),
    }));
  }

  /** Adds a role to a user; holding it already is fine. */
  async addRole(userId: string, roleName: string): Promise<void> {
    await this.db.insert(userRoles).values({ userId, roleName }).onConflictDoNothing();
  }

  /** Removes a role from a user. */
  async removeRole(userId: string, roleName: string): Promise<void> {
    await this.db.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.roleName, roleName)));
  }
}

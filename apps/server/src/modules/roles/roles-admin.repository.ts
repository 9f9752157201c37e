import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rolePermissions, roles, userRoles, users } from '../../db/schema.js';

/** A role with its permissions and holder count. */
export interface RoleRow {
  name: string;
  builtin: boolean;
  permissions: string[];
  userCount: number;
  requireTwoFactor: boolean;
}

/** Queries behind role administration. */
export class RolesAdminRepository {
  constructor(private readonly db: Db) {}

  /** Every role, by name. */
  async list(): Promise<RoleRow[]> {
    return this.db
      .select({
        name: roles.name,
        builtin: roles.builtin,
        requireTwoFactor: roles.requireTwoFactor,
        permissions: sql<
          string[]
        >`coalesce((SELECT array_agg(rp.permission ORDER BY rp.permission) FROM role_permissions rp WHERE rp.role_name = ${roles.name}), '{}')`,
        userCount: sql<number>`(SELECT count(*)::int FROM user_roles ur WHERE ur.role_name = ${roles.name})`,
      })
      .from(roles)
      .orderBy(asc(sql`lower(${roles.name})`), asc(roles.name));
  }

  /** One role, if it exists. */
  async find(name: string): Promise<RoleRow | undefined> {
    return (await this.list()).find((r) => r.name === name);
  }

  /** Sets whether the role's holders must have a second factor. */
  async setRequireTwoFactor(name: string, required: boolean): Promise<void> {
    await this.db.update(roles).set({ requireTwoFactor: required }).where(eq(roles.name, name));
  }

  /** Emails of the role's holders. */
  async holders(name: string): Promise<string[]> {
    const rows = await this.db
      .select({ email: users.email })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(eq(userRoles.roleName, name))
      .orderBy(asc(users.email));
    return rows.map((r) => r.email);
  }

  /**
   * Emails of the holders of this role or of any role granting this permission, by email, at most
   * `limit` (My access: whom a user without reach asks).
   */
  async holdersOfRoleOrPermission(role: string, permission: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ email: users.email })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(
        sql`${userRoles.roleName} = ${role} OR ${userRoles.roleName} IN (SELECT ${rolePermissions.roleName} FROM ${rolePermissions} WHERE ${rolePermissions.permission} = ${permission})`,
      )
      .orderBy(asc(users.email))
      .limit(limit);
    return rows.map((r) => r.email);
  }

  /** Creates a role with permissions in one transaction; throws a unique violation when it exists. */
  async create(name: string, permissions: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(roles).values({ name, builtin: false });
      if (permissions.length > 0) {
        await tx.insert(rolePermissions).values(permissions.map((permission) => ({ roleName: name, permission })));
      }
    });
  }

  /** Adds permissions; answers how many were new. */
  async addPermissions(name: string, permissions: string[]): Promise<number> {
    if (permissions.length === 0) return 0;
    const rows = await this.db
      .insert(rolePermissions)
      .values(permissions.map((permission) => ({ roleName: name, permission })))
      .onConflictDoNothing()
      .returning({ p: rolePermissions.permission });
    return rows.length;
  }

  /** Removes permissions; answers how many were held. */
  async removePermissions(name: string, permissions: string[]): Promise<number> {
    if (permissions.length === 0) return 0;
    const rows = await this.db
      .delete(rolePermissions)
      .where(and(eq(rolePermissions.roleName, name), inArray(rolePermissions.permission, permissions)))
      .returning({ p: rolePermissions.permission });
    return rows.length;
  }

  /** Deletes a role (holders lose it). */
  async delete(name: string): Promise<boolean> {
    const rows = await this.db.delete(roles).where(eq(roles.name, name)).returning({ n: roles.name });
    return rows.length > 0;
  }

  /** Gives the role to users; answers how many did not hold it yet. */
  async addUsers(name: string, userIds: string[]): Promise<number> {
    if (userIds.length === 0) return 0;
    const rows = await this.db
      .insert(userRoles)
      .values(userIds.map((userId) => ({ userId, roleName: name })))
      .onConflictDoNothing()
      .returning({ u: userRoles.userId });
    return rows.length;
  }

  /** How many roles exist. */
  async count(): Promise<number> {
    return (await this.db.select({ n: count() }).from(roles))[0]?.n ?? 0;
  }
}

import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rolePermissions, roles } from '../../db/schema.js';

/** Queries on roles and their permissions. */
export class RolesRepository {
  constructor(private readonly db: Db) {}

  /** Creates the role if missing and gives it these permissions (keeping any it already has). */
  async ensure(name: string, permissions: readonly string[], builtin: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(roles).values({ name, builtin }).onConflictDoNothing();
      if (permissions.length > 0) {
        await tx
          .insert(rolePermissions)
          .values(permissions.map((permission) => ({ roleName: name, permission })))
          .onConflictDoNothing();
      }
    });
  }

  /** How many roles exist. */
  async count(): Promise<number> {
    const rows = await this.db.select({ n: count() }).from(roles);
    return rows[0]?.n ?? 0;
  }

  /** True when a role of this name exists. */
  async exists(name: string): Promise<boolean> {
    const rows = await this.db.select({ name: roles.name }).from(roles).where(eq(roles.name, name)).limit(1);
    return rows.length > 0;
  }
}

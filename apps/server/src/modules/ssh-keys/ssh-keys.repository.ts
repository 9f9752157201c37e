import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userSshKeys } from '../../db/schema.js';

/** SSH public keys users register for the gateway. */
export class SshKeysRepository {
  constructor(private readonly db: Db) {}

  /** A user's keys, oldest first. */
  async listFor(userId: string) {
    return this.db.select().from(userSshKeys).where(eq(userSshKeys.userId, userId)).orderBy(asc(userSshKeys.createdAt));
  }

  /** Stores a key; throws a unique violation when the user has it already. */
  async add(input: { userId: string; name: string; keyType: string; publicKey: string; fingerprint: string }) {
    const [row] = await this.db.insert(userSshKeys).values(input).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** Records that a key was just used at the gateway. */
  async touch(id: string): Promise<void> {
    await this.db.update(userSshKeys).set({ lastUsedAt: new Date() }).where(eq(userSshKeys.id, id));
  }

  /** Deletes one of the user's keys; answers whether it existed. */
  async delete(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(userSshKeys)
      .where(and(eq(userSshKeys.userId, userId), eq(userSshKeys.id, id)))
      .returning({ id: userSshKeys.id });
    return rows.length > 0;
  }
}

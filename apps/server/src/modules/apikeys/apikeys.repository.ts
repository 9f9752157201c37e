import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiKeys } from '../../db/schema.js';

/** Registration keys, stored hashed. */
export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  /** Every key, newest first. */
  async list() {
    return this.db
      .select({
        uuid: apiKeys.uuid,
        description: apiKeys.description,
        permissions: apiKeys.permissions,
        createdAt: apiKeys.createdAt,
        createdBy: apiKeys.createdBy,
        lastUsedAt: apiKeys.lastUsedAt,
      })
      .from(apiKeys)
      .orderBy(desc(apiKeys.createdAt));
  }

  /** Stores a new key's hash and answers its row. */
  async create(input: { description: string; permissions: string[]; keyHash: string; createdBy: string }) {
    const [row] = await this.db.insert(apiKeys).values(input).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** Deletes a key; answers whether it existed. */
  async delete(uuid: string): Promise<boolean> {
    return (await this.db.delete(apiKeys).where(eq(apiKeys.uuid, uuid)).returning({ u: apiKeys.uuid })).length > 0;
  }

  /** The key with this hash, if any (agent registration uses it). */
  async findByHash(keyHash: string) {
    return (await this.db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash)).limit(1))[0];
  }

  /** Records that a key was just used. */
  async touch(uuid: string): Promise<void> {
    await this.db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.uuid, uuid));
  }

  /** How many keys exist. */
  async count(): Promise<number> {
    return (await this.db.select({ n: count() }).from(apiKeys))[0]?.n ?? 0;
  }
}

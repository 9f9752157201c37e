import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
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
        createdAt: apiKeys.createdAt,
        createdBy: apiKeys.createdBy,
        lastUsedAt: apiKeys.lastUsedAt,
        expiresAt: apiKeys.expiresAt,
        uses: apiKeys.uses,
        usesLeft: apiKeys.usesLeft,
      })
      .from(apiKeys)
      .orderBy(desc(apiKeys.createdAt));
  }

  /** Stores a new key's hash and answers its row. */
  async create(input: { description: string; keyHash: string; createdBy: string; hours: number; uses: number }) {
    const [row] = await this.db
      .insert(apiKeys)
      .values({
        description: input.description,
        keyHash: input.keyHash,
        createdBy: input.createdBy,
        expiresAt: sql`now() + make_interval(hours => ${input.hours})`,
        uses: input.uses,
        usesLeft: input.uses,
      })
      .returning();
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

  /**
   * Takes one use of the key with this hash, if it is unexpired and has one left: one UPDATE, so
   * concurrent enrolments on any number of instances never take more uses than the key has.
   */
  async consume(keyHash: string): Promise<{ uuid: string } | undefined> {
    const [row] = await this.db
      .update(apiKeys)
      .set({ usesLeft: sql`${apiKeys.usesLeft} - 1`, lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.keyHash, keyHash), gt(apiKeys.usesLeft, 0), sql`${apiKeys.expiresAt} > now()`))
      .returning({ uuid: apiKeys.uuid });
    return row;
  }

  /** Gives back a use taken by an enrolment that then failed (licence full). */
  async giveBack(uuid: string): Promise<void> {
    await this.db
      .update(apiKeys)
      .set({ usesLeft: sql`least(${apiKeys.usesLeft} + 1, ${apiKeys.uses})` })
      .where(eq(apiKeys.uuid, uuid));
  }

  /** How many keys exist. */
  async count(): Promise<number> {
    return (await this.db.select({ n: count() }).from(apiKeys))[0]?.n ?? 0;
  }
}

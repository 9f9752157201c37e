import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { authTokens, users } from '../../db/schema.js';

/** Queries on stored (hashed) tokens. */
export class TokensRepository {
  constructor(private readonly db: Db) {}

  /** Stores a token's hash for a user until the given time. */
  async insert(tokenHash: string, userId: string, expiresAt: Date, kind = 'session'): Promise<void> {
    await this.db.insert(authTokens).values({ tokenHash, userId, expiresAt, kind });
  }

  /** The user behind an unexpired token, if any. */
  async findLive(tokenHash: string) {
    const rows = await this.db
      .select({ user: users, expiresAt: authTokens.expiresAt, kind: authTokens.kind, createdAt: authTokens.createdAt })
      .from(authTokens)
      .innerJoin(users, eq(users.id, authTokens.userId))
      .where(and(eq(authTokens.tokenHash, tokenHash), gt(authTokens.expiresAt, sql`now()`)))
      .limit(1);
    return rows[0];
  }

  /** Revokes one token. */
  async delete(tokenHash: string): Promise<void> {
    await this.db.delete(authTokens).where(eq(authTokens.tokenHash, tokenHash));
  }

  /**
   * Uses up a one-shot token: true for exactly one caller, even when several instances race for
   * it (the row is deleted by whoever gets it first).
   */
  async consumeOneShot(tokenHash: string): Promise<boolean> {
    const rows = await this.db
      .delete(authTokens)
      .where(and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.kind, 'oneshot')))
      .returning({ h: authTokens.tokenHash });
    return rows.length === 1;
  }

  /** Uses up a token of this kind: true for exactly one caller, on any instance. */
  async consume(tokenHash: string, kind: string): Promise<boolean> {
    const rows = await this.db
      .delete(authTokens)
      .where(and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.kind, kind), gt(authTokens.expiresAt, sql`now()`)))
      .returning({ h: authTokens.tokenHash });
    return rows.length === 1;
  }

  /** Revokes every token of a user except one. */
  async deleteOthers(userId: string, keepHash: string): Promise<void> {
    await this.db.delete(authTokens).where(and(eq(authTokens.userId, userId), ne(authTokens.tokenHash, keepHash)));
  }

  /** Revokes every token of a user. */
  async deleteAllOf(userId: string): Promise<void> {
    await this.db.delete(authTokens).where(eq(authTokens.userId, userId));
  }

  /** Removes expired tokens; returns how many. */
  async purgeExpired(): Promise<number> {
    const rows = await this.db
      .delete(authTokens)
      .where(lt(authTokens.expiresAt, sql`now()`))
      .returning({ h: authTokens.tokenHash });
    return rows.length;
  }
}

import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { passwordResetTokens } from '../../db/schema.js';

/** Single-use password reset tokens, stored hashed. */
export class ResetTokensRepository {
  constructor(private readonly db: Db) {}

  /** Stores a token's hash for a user until the given time. */
  async insert(tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.insert(passwordResetTokens).values({ tokenHash, userId, expiresAt });
  }

  /** Marks an unused, unexpired token used and answers its user; a second use finds nothing. */
  async consume(tokenHash: string): Promise<string | undefined> {
    const rows = await this.db
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    return rows[0]?.userId;
  }
}

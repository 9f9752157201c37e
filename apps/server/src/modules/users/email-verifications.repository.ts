import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { emailVerifications, users } from '../../db/schema.js';

/** One-time email verification links of self sign-ups (stored as SHA-256) and the verified flag. */
export class EmailVerificationsRepository {
  constructor(private readonly db: Db) {}

  /** Stores a link's token hash for a user until the given time. */
  async insert(tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.insert(emailVerifications).values({ tokenHash, userId, expiresAt });
  }

  /**
   * Uses a link once: marks an unused, unexpired token used and the user's email verified, in one
   * transaction; answers the user id, or undefined for an unknown, used or expired token.
   */
  async consume(tokenHash: string): Promise<string | undefined> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(emailVerifications)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(emailVerifications.tokenHash, tokenHash),
            isNull(emailVerifications.usedAt),
            gt(emailVerifications.expiresAt, sql`now()`),
          ),
        )
        .returning({ userId: emailVerifications.userId });
      const userId = rows[0]?.userId;
      if (userId)
        await tx.update(users).set({ emailVerified: true, updatedAt: new Date() }).where(eq(users.id, userId));
      return userId;
    });
  }

  /** Marks a user's email verified (a password reset link proves the mailbox too). */
  async markVerified(userId: string): Promise<void> {
    await this.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
  }

  /**
   * Deletes the unverified account with this email when it was made before `before` (its link has
   * expired), so the address's owner can sign up; answers whether it did.
   */
  async deleteStaleUnverified(email: string, before: Date): Promise<boolean> {
    const rows = await this.db
      .delete(users)
      .where(and(eq(users.email, email.toLowerCase()), eq(users.emailVerified, false), lt(users.createdAt, before)))
      .returning({ id: users.id });
    return rows.length > 0;
  }
}

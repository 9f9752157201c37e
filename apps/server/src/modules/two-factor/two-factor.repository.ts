import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { authTokens, userPasskeys, userRecoveryCodes, userTotp, users, webauthnChallenges } from '../../db/schema.js';

/** A stored passkey: what verification needs, and what its owner sees. */
export type PasskeyRow = typeof userPasskeys.$inferSelect;

/** Queries on second factors (migration 0029). Every write that decides once is one atomic statement. */
export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  /** The user's authenticator app row (confirmed or still enrolling), if any. */
  async totp(userId: string) {
    return (await this.db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1))[0];
  }

  /** Starts (or restarts) an enrolment: a new sealed seed, not confirmed; never over a confirmed one. */
  async startTotp(userId: string, secretSealed: string): Promise<boolean> {
    const rows = await this.db
      .insert(userTotp)
      .values({ userId, secretSealed })
      .onConflictDoUpdate({
        target: userTotp.userId,
        set: { secretSealed, lastStep: null, createdAt: sql`now()` },
        setWhere: isNull(userTotp.confirmedAt),
      })
      .returning({ u: userTotp.userId });
    return rows.length === 1;
  }

  /**
   * Accepts time step `step` for the user: true for exactly one caller, and only when the step is
   * later than the last one accepted (a code is never accepted twice, on any instance). `confirm`
   * also marks an enrolment confirmed.
   */
  async acceptStep(userId: string, step: number, confirm = false): Promise<boolean> {
    const rows = await this.db
      .update(userTotp)
      .set(confirm ? { lastStep: step, confirmedAt: sql`now()` } : { lastStep: step })
      .where(
        and(
          eq(userTotp.userId, userId),
          confirm ? isNull(userTotp.confirmedAt) : isNotNull(userTotp.confirmedAt),
          or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step)),
        ),
      )
      .returning({ u: userTotp.userId });
    return rows.length === 1;
  }

  /** Removes the authenticator app. */
  async removeTotp(userId: string): Promise<void> {
    await this.db.delete(userTotp).where(eq(userTotp.userId, userId));
  }

  /** Replaces the user's recovery codes with these hashes. */
  async replaceRecoveryCodes(userId: string, hashes: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
      if (hashes.length > 0)
        await tx.insert(userRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    });
  }

  /** Uses up a recovery code: true for exactly one caller. */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const rows = await this.db
      .update(userRecoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(userRecoveryCodes.userId, userId),
          eq(userRecoveryCodes.codeHash, codeHash),
          isNull(userRecoveryCodes.usedAt),
        ),
      )
      .returning({ u: userRecoveryCodes.userId });
    return rows.length === 1;
  }

  /** How many unused recovery codes the user has. */
  async recoveryCodesLeft(userId: string): Promise<number> {
    const rows = await this.db
      .select({ n: count() })
      .from(userRecoveryCodes)
      .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
    return rows[0]?.n ?? 0;
  }

  /** The user's passkeys, oldest first. */
  async passkeys(userId: string): Promise<PasskeyRow[]> {
    return this.db
      .select()
      .from(userPasskeys)
      .where(eq(userPasskeys.userId, userId))
      .orderBy(asc(userPasskeys.createdAt));
  }

  /** A passkey by its credential id (whoever owns it). */
  async passkeyByCredential(credentialId: string): Promise<PasskeyRow | undefined> {
    return (await this.db.select().from(userPasskeys).where(eq(userPasskeys.credentialId, credentialId)).limit(1))[0];
  }

  /** Stores a new passkey; undefined when its credential id is registered already. */
  async addPasskey(row: typeof userPasskeys.$inferInsert): Promise<PasskeyRow | undefined> {
    const rows = await this.db.insert(userPasskeys).values(row).onConflictDoNothing().returning();
    return rows[0];
  }

  /**
   * Records a use: the signature counter only moves forward (a cloned authenticator replaying an
   * old counter is refused by the caller; a racing second use of the same counter finds no row).
   */
  async usePasskey(id: string, oldCounter: number, newCounter: number): Promise<boolean> {
    const rows = await this.db
      .update(userPasskeys)
      .set({ counter: newCounter, lastUsedAt: sql`now()` })
      .where(and(eq(userPasskeys.id, id), eq(userPasskeys.counter, oldCounter)))
      .returning({ id: userPasskeys.id });
    return rows.length === 1;
  }

  /** Removes one of the user's passkeys; false when the user has no passkey of that id. */
  async removePasskey(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(userPasskeys)
      .where(and(eq(userPasskeys.userId, userId), eq(userPasskeys.id, id)))
      .returning({ id: userPasskeys.id });
    return rows.length === 1;
  }

  /**
   * Whether the user has a confirmed authenticator app, how many passkeys, and whether a role of
   * theirs requires a second factor: one query, asked on every authenticated call. (The user's id
   * is a parameter: a bare column of the outer table would bind to the subquery's own `id`.)
   */
  async stateOf(userId: string): Promise<{ totp: boolean; passkeys: number; required: boolean }> {
    const rows = await this.db
      .select({
        totp: sql<boolean>`EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = ${userId} AND t.confirmed_at IS NOT NULL)`,
        passkeys: sql<number>`(SELECT count(*)::int FROM user_passkeys p WHERE p.user_id = ${userId})`,
        required: sql<boolean>`EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.name = ur.role_name
          WHERE ur.user_id = ${userId} AND r.require_two_factor)`,
      })
      .from(users)
      .where(eq(users.id, userId));
    const row = rows[0];
    return { totp: row?.totp === true, passkeys: Number(row?.passkeys ?? 0), required: row?.required === true };
  }

  /**
   * An administrator's reset (issue 20): removes the user's authenticator app, passkeys, recovery
   * codes and pending ceremonies, and revokes every token of theirs, in one transaction (the token
   * delete appends to rights_changes, so their live connections are re-checked on every instance).
   * Answers what was removed and the revoked token hashes (for this instance's live connections).
   */
  async resetAll(
    userId: string,
  ): Promise<{ totp: boolean; passkeys: number; recoveryCodes: number; tokenHashes: string[] }> {
    return this.db.transaction(async (tx) => {
      const totp = await tx
        .delete(userTotp)
        .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.confirmedAt)))
        .returning({ u: userTotp.userId });
      // An enrolment never confirmed is no factor, but it goes too.
      await tx.delete(userTotp).where(eq(userTotp.userId, userId));
      const passkeys = await tx
        .delete(userPasskeys)
        .where(eq(userPasskeys.userId, userId))
        .returning({ id: userPasskeys.id });
      const codes = await tx
        .delete(userRecoveryCodes)
        .where(eq(userRecoveryCodes.userId, userId))
        .returning({ u: userRecoveryCodes.userId });
      await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
      const tokens = await tx
        .delete(authTokens)
        .where(eq(authTokens.userId, userId))
        .returning({ h: authTokens.tokenHash });
      return {
        totp: totp.length > 0,
        passkeys: passkeys.length,
        recoveryCodes: codes.length,
        tokenHashes: tokens.map((t) => t.h),
      };
    });
  }

  /** Each user's confirmed authenticator app and passkey count, for the users list (outer column named in full). */
  async summaryOf(userIds: string[]): Promise<Map<string, { totp: boolean; passkeys: number }>> {
    const out = new Map<string, { totp: boolean; passkeys: number }>();
    if (userIds.length === 0) return out;
    const rows = await this.db
      .select({
        id: users.id,
        totp: sql<boolean>`EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = "users"."id" AND t.confirmed_at IS NOT NULL)`,
        passkeys: sql<number>`(SELECT count(*)::int FROM user_passkeys p WHERE p.user_id = "users"."id")`,
      })
      .from(users)
      .where(inArray(users.id, userIds));
    for (const r of rows) out.set(r.id, { totp: r.totp === true, passkeys: Number(r.passkeys ?? 0) });
    return out;
  }

  /** Stores a ceremony's challenge. */
  async saveChallenge(row: typeof webauthnChallenges.$inferInsert): Promise<void> {
    await this.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
    await this.db.insert(webauthnChallenges).values(row);
  }

  /** Uses up a live challenge of this purpose (and user, when one is named): once, on any instance. */
  async takeChallenge(id: string, purpose: string, userId: string | null) {
    const rows = await this.db
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.id, id),
          eq(webauthnChallenges.purpose, purpose),
          userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
          gt(webauthnChallenges.expiresAt, sql`now()`),
        ),
      )
      .returning();
    return rows[0];
  }
}

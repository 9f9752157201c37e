import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { ssoFlows, ssoHandoffs, ssoSeenAssertions } from '../../db/schema.js';

export type SsoProtocol = 'oidc' | 'saml';
export type SsoPurposeName = 'signin' | 'authorize';
/** The purpose of a hand-off row that is a re-authorization waiting for its second factor (issue 20). */
const PENDING_FACTOR = 'authorize-second-factor';

/** A single sign-on begun here and not finished yet. */
export interface SsoFlow {
  protocol: SsoProtocol;
  purpose: SsoPurposeName;
  /** The signed-in user re-authorizing (purpose authorize). */
  requesterId: string | null;
  /** SHA-256 of the value in this browser's binding cookie. */
  bindingHash: string;
  /** OIDC: PKCE verifier and nonce; SAML: the AuthnRequest id. Also the requester's token hash. */
  data: Record<string, string>;
}

/**
 * The rows single sign-on keeps between requests, shared by every instance. Each is used up by
 * deleting it, so a flow, a hand-off or an assertion id serves exactly one caller.
 */
export class SsoFlowsRepository {
  constructor(private readonly db: Db) {}

  async putFlow(idHash: string, flow: SsoFlow, expiresAt: Date): Promise<void> {
    await this.db.insert(ssoFlows).values({ idHash, ...flow, expiresAt });
  }

  /** Takes a live flow (once: a second call, or another instance, gets undefined). */
  async takeFlow(idHash: string): Promise<SsoFlow | undefined> {
    const rows = await this.db
      .delete(ssoFlows)
      .where(and(eq(ssoFlows.idHash, idHash), gt(ssoFlows.expiresAt, sql`now()`)))
      .returning();
    const row = rows[0];
    if (!row) return undefined;
    return {
      protocol: row.protocol as SsoProtocol,
      purpose: row.purpose as SsoPurposeName,
      requesterId: row.requesterId,
      bindingHash: row.bindingHash,
      data: row.data as Record<string, string>,
    };
  }

  async putHandoff(
    codeHash: string,
    handoff: { userId: string; purpose: SsoPurposeName; requesterTokenHash: string | null },
    expiresAt: Date,
  ): Promise<void> {
    await this.db.insert(ssoHandoffs).values({ codeHash, ...handoff, expiresAt });
  }

  /** Takes a completed sign-on (once); never a step waiting for its second factor. */
  async takeHandoff(codeHash: string) {
    const rows = await this.db
      .delete(ssoHandoffs)
      .where(
        and(
          eq(ssoHandoffs.codeHash, codeHash),
          inArray(ssoHandoffs.purpose, ['signin', 'authorize']),
          gt(ssoHandoffs.expiresAt, sql`now()`),
        ),
      )
      .returning();
    const row = rows[0];
    return row
      ? { userId: row.userId, purpose: row.purpose as SsoPurposeName, requesterTokenHash: row.requesterTokenHash }
      : undefined;
  }

  /**
   * Keeps a single sign-on re-authorization of someone with a second factor until they prove it
   * (issue 20): bound to the user and to the hash of the session token that started it.
   */
  async putPendingFactor(
    stepHash: string,
    pending: { userId: string; requesterTokenHash: string },
    expiresAt: Date,
  ): Promise<void> {
    await this.db.insert(ssoHandoffs).values({ codeHash: stepHash, purpose: PENDING_FACTOR, ...pending, expiresAt });
  }

  /** A live step waiting for its second factor, without using it up. */
  async pendingFactor(stepHash: string): Promise<{ userId: string; requesterTokenHash: string | null } | undefined> {
    const rows = await this.db
      .select({ userId: ssoHandoffs.userId, requesterTokenHash: ssoHandoffs.requesterTokenHash })
      .from(ssoHandoffs)
      .where(
        and(
          eq(ssoHandoffs.codeHash, stepHash),
          eq(ssoHandoffs.purpose, PENDING_FACTOR),
          gt(ssoHandoffs.expiresAt, sql`now()`),
        ),
      )
      .limit(1);
    return rows[0];
  }

  /** Uses up a live step of this user and session token: true for exactly one caller, on any instance. */
  async takePendingFactor(stepHash: string, userId: string, requesterTokenHash: string): Promise<boolean> {
    const rows = await this.db
      .delete(ssoHandoffs)
      .where(
        and(
          eq(ssoHandoffs.codeHash, stepHash),
          eq(ssoHandoffs.purpose, PENDING_FACTOR),
          eq(ssoHandoffs.userId, userId),
          eq(ssoHandoffs.requesterTokenHash, requesterTokenHash),
          gt(ssoHandoffs.expiresAt, sql`now()`),
        ),
      )
      .returning({ k: ssoHandoffs.codeHash });
    return rows.length === 1;
  }

  /**
   * Records an assertion id as used; true the first time only (even when instances race), false
   * for a replay. Kept until `until`, after which the assertion is refused as expired anyway.
   */
  async firstUseOfAssertion(assertionId: string, until: Date): Promise<boolean> {
    const rows = await this.db
      .insert(ssoSeenAssertions)
      .values({ assertionId, expiresAt: until })
      .onConflictDoNothing()
      .returning({ id: ssoSeenAssertions.assertionId });
    return rows.length === 1;
  }

  /** Removes what has expired; returns how many rows. */
  async purgeExpired(): Promise<number> {
    const now = sql`now()`;
    const a = await this.db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, now)).returning({ k: ssoFlows.idHash });
    const b = await this.db
      .delete(ssoHandoffs)
      .where(lt(ssoHandoffs.expiresAt, now))
      .returning({ k: ssoHandoffs.codeHash });
    const c = await this.db
      .delete(ssoSeenAssertions)
      .where(lt(ssoSeenAssertions.expiresAt, now))
      .returning({ k: ssoSeenAssertions.assertionId });
    return a.length + b.length + c.length;
  }
}

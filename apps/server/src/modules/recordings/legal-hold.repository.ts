import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { recordings } from '../../db/schema.js';
import type { RecordingRow } from '../../recordings/recordings.repository.js';

/**
 * Legal hold on recording rows. Each change is one conditional UPDATE, so two people placing (or
 * lifting) at once get one success and one conflict, and retention's DELETE (which only takes rows
 * with legal_hold = false) never removes a row a hold reached first.
 */
export class LegalHoldRepository {
  constructor(private readonly db: Db) {}

  /** Places the hold when none is; answers the row, or undefined when unknown or held already. */
  async place(id: string, by: string, reason: string): Promise<RecordingRow | undefined> {
    const [row] = await this.db
      .update(recordings)
      .set({ legalHold: true, legalHoldBy: by, legalHoldAt: sql`now()`, legalHoldReason: reason })
      .where(and(eq(recordings.id, id), eq(recordings.legalHold, false)))
      .returning();
    return row;
  }

  /** Lifts the hold when one is (its facts cleared: the audit trail keeps them); undefined otherwise. */
  async lift(id: string): Promise<RecordingRow | undefined> {
    const [row] = await this.db
      .update(recordings)
      .set({ legalHold: false, legalHoldBy: null, legalHoldAt: null, legalHoldReason: null })
      .where(and(eq(recordings.id, id), eq(recordings.legalHold, true)))
      .returning();
    return row;
  }
}

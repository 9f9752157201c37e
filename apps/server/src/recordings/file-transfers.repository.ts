import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { fileTransfers } from '../db/schema.js';
import type { TransferEvent } from '../gateway/transfers/transfer-event.js';

/** A file_transfers row. */
export type FileTransferRow = typeof fileTransfers.$inferSelect;

/** The most operations one listing answers. */
export const TRANSFERS_LISTED = 10_000;

/** The file operations of sessions (migration 0019): written by the gateway, listed by the sessions API. */
export class FileTransfersRepository {
  constructor(private readonly db: Db) {}

  /** Notes operations of a recording, each `t` seconds from its start, in one statement. */
  async add(recordingId: string, events: readonly { t: number; event: TransferEvent }[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insert(fileTransfers).values(
      events.map(({ t, event: e }) => ({
        recordingId,
        t,
        protocol: e.protocol,
        op: e.op,
        path: e.path,
        target: e.target ?? null,
        direction: e.direction,
        bytes: e.bytes,
        sha256: e.sha256,
        outcome: e.outcome,
        note: e.note ?? null,
      })),
    );
  }

  /** A recording's operations in time order, at most TRANSFERS_LISTED (plus one, to tell there are more). */
  async list(recordingId: string): Promise<FileTransferRow[]> {
    return this.db
      .select()
      .from(fileTransfers)
      .where(eq(fileTransfers.recordingId, recordingId))
      .orderBy(asc(fileTransfers.t), asc(fileTransfers.id))
      .limit(TRANSFERS_LISTED + 1);
  }
}

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

  /** Notes one operation of a recording, `t` seconds from its start. */
  async add(recordingId: string, t: number, e: TransferEvent): Promise<void> {
    await this.db.insert(fileTransfers).values({
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
    });
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

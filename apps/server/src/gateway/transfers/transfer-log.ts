import type { FastifyBaseLogger } from 'fastify';
import { detach, logFailure } from '../../lib/detach.js';
import type { FileTransfersRepository } from '../../recordings/file-transfers.repository.js';
import type { TransferEvent } from './transfer-event.js';

/** Rows one statement writes at most. */
const BATCH = 500;
/** Rows a connection may have waiting for the database; past it they are counted, not kept. */
export const MAX_QUEUED = 20_000;

/**
 * A connection's file_transfers rows on their way to the database: one insert in flight at a
 * time, in batches, so a client issuing a flood of operations (a million mkdirs) costs a bounded
 * queue and a statement per 500 rows, never a promise per row. The recording's markers are the
 * record; rows that could not be queued or written are counted and logged once.
 */
export class TransferLog {
  private queue: { t: number; event: TransferEvent }[] = [];
  private writing = false;
  private dropped = 0;

  constructor(
    private readonly rows: FileTransfersRepository,
    private readonly recordingId: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(t: number, event: TransferEvent): void {
    if (this.queue.length >= MAX_QUEUED) {
      if (this.dropped++ === 0)
        this.log.warn(
          { recording: this.recordingId },
          'file transfers arrive faster than the database takes them: further rows are left out (the recording has them)',
        );
      return;
    }
    this.queue.push({ t, event });
    if (!this.writing) detach(this.log, 'storing file transfer rows', this.drain());
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, BATCH);
        try {
          await this.rows.add(this.recordingId, batch);
        } catch (error) {
          this.dropped += batch.length;
          logFailure(this.log, error, 'file transfer rows not stored (the recording has them)');
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

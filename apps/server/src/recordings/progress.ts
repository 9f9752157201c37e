import type { FlushedChunk } from './recorder.js';

/**
 * Signed checkpoints are taken this often while a session has new committed chunks: every 4 s,
 * so two checkpoints are less than 5 s apart even with the time to sign and store one.
 */
export const CHECKPOINT_MS = 4000;

/**
 * Writes of one recording's progress start at least this far apart: a flood hands over a chunk
 * every few milliseconds, and a row write for each would keep the database (the embedded one runs
 * on the server's own thread) busy for the whole flood. Chunks in between are coalesced into the
 * newest, so a crash loses at most this much committed-but-unwritten output more.
 */
export const COMMIT_SPACING_MS = 100;
/**
 * And at least this many times as far apart as the last write took (issue 19): on the embedded
 * database, which runs on the gateway's own thread, a write under load takes 10–30 ms, and ten of
 * them a second were a recorded bulk copy's largest cost on that thread after the relay itself. A
 * recording's progress then takes at most a tenth of the database's time, whatever its speed; on
 * PostgreSQL (a write of a millisecond or two) the spacing stays COMMIT_SPACING_MS.
 */
export const COMMIT_SPACING_FACTOR = 10;

/**
 * Commits one live recording's chain progress to its row as each chunk reaches the disk, so that
 * recovery signs only what the database saw. At most one write is in flight; chunks that arrive
 * meanwhile are coalesced into the newest, written next. The row itself never goes back (the
 * repository writes only over fewer chunks), and a failed write is retried by the next chunk.
 */
export class ProgressCommitter {
  /** The newest progress the database confirmed. */
  committed: FlushedChunk;
  /** The chunk number the last checkpoint was taken at. */
  checkpointed = 0;
  /** The newest chunk on disk, committed or not. */
  private latest: FlushedChunk;
  private waiting: FlushedChunk | undefined;
  private writing: Promise<void> | undefined;
  /** When the next write may start (Date.now() ms). */
  private nextWrite = 0;

  constructor(
    start: FlushedChunk,
    private readonly write: (progress: FlushedChunk) => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {
    this.committed = start;
    this.latest = start;
  }

  /** A chunk reached the disk: commit it (after the write in flight, if any). */
  chunk(progress: FlushedChunk): void {
    if (progress.seq > this.latest.seq) this.latest = { ...progress };
    if (progress.seq <= (this.waiting?.seq ?? this.committed.seq)) return;
    this.waiting = { ...progress };
    this.writing ??= this.drain();
  }

  private async drain(): Promise<void> {
    // A chunk after a quiet spell waits out the spacing too: writes start that far apart.
    const early = this.nextWrite - Date.now();
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
    while (this.waiting) {
      const next = this.waiting;
      this.waiting = undefined;
      const started = Date.now();
      try {
        await this.write(next);
        if (next.seq > this.committed.seq) this.committed = next;
      } catch (error) {
        this.failed(error);
      }
      const took = Date.now() - started;
      this.nextWrite = started + Math.max(COMMIT_SPACING_MS, COMMIT_SPACING_FACTOR * took);
      const rest = this.nextWrite - Date.now();
      if (this.waiting && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
    this.writing = undefined;
  }

  /** Commits again what a failed write left behind (the database was away and no chunk came since). */
  retry(): void {
    if (!this.writing) this.chunk(this.latest);
  }

  /** Settles once nothing is in flight or waiting. */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** The committed progress not yet checkpointed (marked as taken), or undefined. */
  takeCheckpoint(): FlushedChunk | undefined {
    if (this.committed.seq <= this.checkpointed) return undefined;
    this.checkpointed = this.committed.seq;
    return this.committed;
  }
}

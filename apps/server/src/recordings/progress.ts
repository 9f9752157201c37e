import type { FlushedChunk } from './recorder.js';

/**
 * Signed checkpoints are taken this often while a session has new committed chunks: every 4 s,
 * so two checkpoints are less than 5 s apart even with the time to sign and store one.
 */
export const CHECKPOINT_MS = 4000;
/** Checkpoints stored per statement at most (six values each). */
export const CHECKPOINT_BATCH_ROWS = 500;

/**
 * Statements committing recordings' progress start at least this far apart (ProgressBatcher): a
 * flood hands over a chunk every few milliseconds, and a typing session one every FLUSH_MS, so a
 * statement per chunk would keep the database (the embedded one runs on the server's own thread)
 * busy. Progress that arrives in between, of any number of recordings, waits and goes into the
 * next statement, newest per recording; a crash loses at most this much committed-but-unwritten
 * output more.
 */
export const COMMIT_SPACING_MS = 100;
/**
 * And at least this many times as far apart as the last statement took (issue 19): on the embedded
 * database a write under load takes 10–30 ms, and recordings' progress then takes at most a tenth of
 * the database's time, whatever its speed and however many sessions write. On PostgreSQL (a
 * statement of a millisecond or two) the spacing stays COMMIT_SPACING_MS.
 */
export const COMMIT_SPACING_FACTOR = 10;
/** Rows per statement at most on PostgreSQL (four parameters each, well under its 65,535). */
export const COMMIT_BATCH_ROWS = 1000;
/**
 * Rows per statement at most on the embedded database, which runs each statement on the gateway's
 * thread: a 100-row update held that thread 15 ms, and every session's keystrokes with it; statements
 * of 25 rows, with the thread's other work between them, hold it about 4 ms each.
 */
export const EMBEDDED_BATCH_ROWS = 25;

/** A recording's row was held locked by another transaction: its progress waits for the next try. */
export class RowLocked extends Error {
  constructor() {
    super("the recording's row is locked by another transaction; its progress is committed on the next try");
  }
}

/** One recording's progress as one statement row. */
export interface ProgressRow {
  id: string;
  bytes: number;
  chunks: number;
  chainHead: string;
}

/**
 * Commits the progress of every live recording of this instance in shared statements (issue 19):
 * with a statement per recording, a hundred sessions typing at once made 800 statements a second,
 * kept the embedded database on the gateway's thread more than half the time and delayed every
 * session's keystrokes by tens of milliseconds (docs/benchmarks.md, "Many sessions typing"). One
 * statement is in flight at a time; what arrives meanwhile goes into the next, newest per recording.
 */
export class ProgressBatcher {
  private readonly waiting = new Map<
    string,
    { progress: FlushedChunk; settle: { resolve: () => void; reject: (error: unknown) => void }[] }
  >();
  private running = false;
  /** When the next round of statements may start (Date.now() ms). */
  private nextWrite = 0;

  constructor(
    /** Writes the rows; answers the ids of rows it skipped (locked by another transaction), if any. */
    private readonly writeMany: (rows: ProgressRow[]) => Promise<string[] | void>,
    /** Rows per statement at most: COMMIT_BATCH_ROWS, or EMBEDDED_BATCH_ROWS on the embedded database. */
    public rowsPerStatement = COMMIT_BATCH_ROWS,
  ) {}

  /** Commits this recording's progress in the next statement; settles when that statement does. */
  write(id: string, progress: FlushedChunk): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = this.waiting.get(id);
      if (entry) {
        if (progress.seq > entry.progress.seq) entry.progress = progress;
        entry.settle.push({ resolve, reject });
      } else this.waiting.set(id, { progress, settle: [{ resolve, reject }] });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting.size > 0) {
        // After a quiet spell too: rounds start COMMIT_SPACING_MS apart at least. And not before
        // this turn of the event loop is over: progress handed over in the same turn (the
        // recorder's replies come in bursts) shares the round.
        const early = this.nextWrite - Date.now();
        await new Promise((resolve) => (early > 0 ? setTimeout(resolve, early) : setImmediate(resolve)));
        // A round: everything waiting now, in statements of rowsPerStatement rows, one after the
        // other with a turn of the event loop between them. What arrives meanwhile waits for the next.
        const round = [...this.waiting];
        this.waiting.clear();
        const started = Date.now();
        for (let at = 0; at < round.length; at += this.rowsPerStatement) {
          if (at > 0) await new Promise((resolve) => setImmediate(resolve));
          const statement = round.slice(at, at + this.rowsPerStatement);
          try {
            const skipped = new Set(
              (await this.writeMany(
                statement.map(([id, { progress }]) => ({
                  id,
                  bytes: progress.bytes,
                  chunks: progress.seq,
                  chainHead: progress.chainHead,
                })),
              )) ?? [],
            );
            // A row skipped as locked is not committed: its writer hears so, and commits it again
            // later (ProgressCommitter.retry); the others are.
            for (const [id, { settle }] of statement) {
              for (const s of settle) {
                if (skipped.has(id)) s.reject(new RowLocked());
                else s.resolve();
              }
            }
          } catch (error) {
            for (const [, { settle }] of statement) for (const s of settle) s.reject(error);
          }
        }
        const took = Date.now() - started;
        this.nextWrite = started + Math.max(COMMIT_SPACING_MS, COMMIT_SPACING_FACTOR * took);
      }
    } finally {
      this.running = false;
    }
  }
}

/**
 * Commits one live recording's chain progress to its row as each chunk reaches the disk, so that
 * recovery signs only what the database saw. At most one write is in flight (through the
 * instance's ProgressBatcher, which spaces the statements); chunks that arrive meanwhile are
 * coalesced into the newest, written next. The row itself never goes back (the
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
    // The write (a ProgressBatcher's) waits for the next shared statement, spaced there.
    while (this.waiting) {
      const next = this.waiting;
      this.waiting = undefined;
      try {
        await this.write(next);
        if (next.seq > this.committed.seq) this.committed = next;
      } catch (error) {
        this.failed(error);
      }
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

import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/health.js';
import type { RecordingTextRepository } from './recording-text.repository.js';
import { clean, extractText } from './text-extract.js';

/** Recordings claimed per backlog round. */
const BACKLOG_BATCH = 20;
/** How often the backlog is looked at again (recordings whose end this instance did not see). */
const SWEEP_MS = 5 * 60_000;

/**
 * Fills the search index (migration 0020) from cast files. A recording is indexed once it has
 * ended (the 'ended' event of RecordingsService, finish and recovery alike), and recordings that
 * ended before the index existed, or whose end was seen by an instance that died, are found by a
 * sweep at start and every few minutes. Every recording is claimed in the database first, so of
 * several instances exactly one indexes it. One recording at a time per instance: a cast file is
 * streamed (text-extract.ts), and its text, capped per recording, is written in batches under the claim.
 * Live sessions are not indexed: their text is searched in the player until they end.
 */
export class TextIndexer {
  private readonly queue: string[] = [];
  private running = false;
  private sweeping = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Settles when the queue is empty (tests and the bench wait on it). */
  private idleWaiters: (() => void)[] = [];
  /** Who claims: this process (each process claims under its own name). */
  readonly claimant = `indexer:${crypto.randomUUID()}`;
  /**
   * Where a recording's cast file is when object storage is configured (services.ts sets it): its
   * local file or a fresh copy of its objects, released after reading (ADR 0008).
   */
  localFile: ((id: string) => Promise<{ castPath: string; release: () => Promise<void> } | undefined>) | undefined;

  constructor(
    private readonly repository: RecordingTextRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts the sweep: now, then every few minutes. */
  start(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  /** Stops taking work; a recording being indexed finishes (or its claim goes stale). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.queue.length = 0;
  }

  /** A recording ended: index it soon. */
  ended(id: string): void {
    if (this.closed) return;
    this.queue.push(id);
    void this.drain();
  }

  /** Claims what the index lacks, round after round, until nothing is left. */
  async sweep(): Promise<void> {
    if (this.sweeping || this.closed) return;
    this.sweeping = true;
    try {
      for (;;) {
        const ids = await this.repository.claimBacklog(this.claimant, BACKLOG_BATCH);
        for (const id of ids) await this.indexClaimed(id);
        if (ids.length < BACKLOG_BATCH || this.closed) break;
      }
    } catch (error) {
      this.warn(error, 'the search index backlog could not be read');
    } finally {
      this.sweeping = false;
    }
  }

  /** Resolves once nothing waits to be indexed and no sweep runs. */
  async idle(): Promise<void> {
    while (this.running || this.sweeping || this.queue.length > 0)
      await new Promise<void>((resolve) => {
        this.idleWaiters.push(resolve);
        setTimeout(resolve, 50);
      });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let id = this.queue.shift(); id !== undefined; id = this.queue.shift()) {
        try {
          if (await this.repository.claim(id, this.claimant)) await this.indexClaimed(id);
        } catch (error) {
          // The sweep finds it again later (its claim goes stale, or it was never claimed).
          this.warn(error, 'a recording could not be indexed for search');
        }
      }
    } finally {
      this.running = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /** Reads a claimed recording's file and stores its text. */
  private async indexClaimed(id: string): Promise<void> {
    const source = await this.repository.source(id);
    if (!source) return;
    let text: Awaited<ReturnType<typeof extractText>>;
    try {
      const copy = await this.localFile?.(id);
      try {
        text = await extractText(copy?.castPath ?? source.storagePath);
      } finally {
        await copy?.release();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      await this.repository.failed(id, this.claimant, `the recording's file could not be read (${code})`);
      return;
    }
    const command = source.command ? clean(source.command) : '';
    if (command && !text.entries.some((e) => e.kind === 'command' && e.text === command))
      text.entries.unshift({ t: 0, kind: 'command', text: command });
    await this.repository.store(id, this.claimant, text.entries, text.truncated);
  }

  private warn(error: unknown, message: string): void {
    if (isDatabaseUnavailable(error)) return; // the database's health tracker says so once
    this.log.warn({ err: error }, message);
  }
}

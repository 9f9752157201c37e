/**
 * Scans of whole recordings (verification, search) run a few at a time per process: each reads at
 * disk speed and keeps a core busy for as long as the file is large. More wait their turn in a
 * short queue; beyond it `run` answers undefined at once, so the caller can say "try again".
 */
export class ScanQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency = 2,
    readonly maxWaiting = 16,
  ) {}

  /** Runs `task` when a place is free; undefined (without running it) when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<T | undefined> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running += 1;
    try {
      return await task();
    } finally {
      // The place passes to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

import type { CastEvent, RecordOut } from '@gatehouse/contracts';

/** What the live view does with a chunk that arrived. */
export type LiveStep =
  /** Clear the terminal and draw everything so far (the catch-up). */
  | { kind: 'replay'; events: CastEvent[] }
  /** Draw these next. */
  | { kind: 'append'; events: CastEvent[] }
  /** A chunk is missing: re-attach with replay. */
  | { kind: 'gap'; expected: number; got: number }
  /** Nothing to do (a duplicate, or a chunk held until the catch-up arrives). */
  | { kind: 'none' };

/** Chunks kept while waiting for the catch-up; beyond this the catch-up will cover them anyway. */
const MAX_EARLY = 500;

/**
 * Orders a live session's chunks. The server answers an attach with the catch-up (seq 0, `upto`)
 * and sends every later chunk numbered upto+1, upto+2…; chunks can reach the watcher before the
 * catch-up, so they wait until it arrives. A number skipped means a chunk was lost: the caller
 * re-attaches and this starts over.
 */
export class LiveSequencer {
  private last: number | null = null;
  private early: RecordOut[] = [];

  /** Waiting for a catch-up (after an attach or a gap). */
  get waiting(): boolean {
    return this.last === null;
  }

  /** The last chunk drawn, or null while waiting for the catch-up. */
  get lastSeq(): number | null {
    return this.last;
  }

  /** Forgets everything: call before (re-)attaching. */
  restart(): void {
    this.last = null;
    this.early = [];
  }

  /** Decides what a chunk means. */
  receive(chunk: RecordOut): LiveStep {
    if (chunk.seq === 0) {
      this.last = chunk.upto ?? 0;
      const events = [...chunk.events];
      const held = this.early.sort((a, b) => a.seq - b.seq);
      this.early = [];
      for (const next of held) {
        const step = this.next(next);
        if (step.kind === 'gap') return step;
        if (step.kind === 'append') events.push(...step.events);
      }
      return { kind: 'replay', events };
    }
    if (this.last === null) {
      if (this.early.length < MAX_EARLY) this.early.push(chunk);
      return { kind: 'none' };
    }
    return this.next(chunk);
  }

  private next(chunk: RecordOut): LiveStep {
    const last = this.last ?? 0;
    if (chunk.seq <= last) return { kind: 'none' };
    if (chunk.seq === last + 1) {
      this.last = chunk.seq;
      return { kind: 'append', events: chunk.events };
    }
    this.restart();
    return { kind: 'gap', expected: last + 1, got: chunk.seq };
  }
}

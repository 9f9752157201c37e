import { describe, expect, it } from 'vitest';
import {
  COMMIT_BATCH_ROWS,
  COMMIT_SPACING_FACTOR,
  COMMIT_SPACING_MS,
  ProgressBatcher,
  ProgressCommitter,
  type ProgressRow,
  RowLocked,
} from './progress.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const chunk = (seq: number) => ({ seq, bytes: seq * 100, chainHead: `h${seq}` });

describe('ProgressBatcher', () => {
  it('spaces statements by COMMIT_SPACING_MS, or by COMMIT_SPACING_FACTOR times a slow one, and keeps the newest', async () => {
    for (const writeMs of [0, 30]) {
      const starts: number[] = [];
      const written: number[] = [];
      const batcher = new ProgressBatcher(async (rows) => {
        starts.push(performance.now());
        await sleep(writeMs);
        written.push(...rows.map((r) => r.chunks));
      });
      const committer = new ProgressCommitter(
        chunk(0),
        (p) => batcher.write('one', p),
        () => undefined,
      );
      // A flood: a chunk every 5 ms for 700 ms (longer on a loaded machine, whose timers run late).
      const floodStart = performance.now();
      for (let seq = 1; seq <= 140; seq += 1) {
        committer.chunk(chunk(seq));
        await sleep(5);
      }
      const floodMs = performance.now() - floodStart;
      await committer.settled();
      expect(written.at(-1)).toBe(140);
      expect(committer.committed.seq).toBe(140);
      const spacing = Math.max(COMMIT_SPACING_MS, COMMIT_SPACING_FACTOR * writeMs);
      const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
      // Timers may fire a millisecond early by this clock, and the batcher times the statement with
      // Date.now(), which may read a 30 ms sleep as 29 ms (then the spacing is 290 ms, not 300).
      const least = Math.max(COMMIT_SPACING_MS, COMMIT_SPACING_FACTOR * Math.max(0, writeMs - 1)) - 5;
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(least);
      // At most one statement per spacing over the flood as it really lasted, plus the first and the last.
      expect(written.length).toBeLessThanOrEqual(Math.ceil(floodMs / spacing) + 2);
    }
  });

  it('commits a hundred typing sessions in a few statements a second, each row its own newest progress', async () => {
    const statements: ProgressRow[][] = [];
    const batcher = new ProgressBatcher(async (rows) => {
      statements.push(rows);
      await sleep(2);
    });
    const committers = Array.from(
      { length: 100 },
      (_, i) =>
        new ProgressCommitter(
          chunk(0),
          (p) => batcher.write(`rec-${i}`, p),
          () => undefined,
        ),
    );
    // Every session hands over a chunk every 100 ms (FLUSH_MS, a keystroke's echo), for 1 s.
    const started = performance.now();
    for (let seq = 1; seq <= 10; seq += 1) {
      for (const committer of committers) committer.chunk(chunk(seq));
      await sleep(100);
    }
    await Promise.all(committers.map((c) => c.settled()));
    const seconds = (performance.now() - started) / 1000;
    for (const committer of committers) expect(committer.committed.seq).toBe(10);
    // One statement per spacing, not one per session and chunk (that was 1,000).
    expect(statements.length).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / COMMIT_SPACING_MS) + 2);
    // Each recording at most once per statement, with the newest progress it had.
    for (const rows of statements) expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const last = new Map<string, ProgressRow>();
    for (const rows of statements) for (const row of rows) last.set(row.id, row);
    expect([...last.values()].every((r) => r.chunks === 10 && r.chainHead === 'h10' && r.bytes === 1000)).toBe(true);
  });

  it('splits a statement at COMMIT_BATCH_ROWS, and a failed statement fails only its own rows', async () => {
    const sizes: number[] = [];
    let fail = true;
    const batcher = new ProgressBatcher(async (rows) => {
      sizes.push(rows.length);
      if (fail) {
        fail = false;
        throw new Error('the database went away');
      }
    });
    const results = await Promise.allSettled(
      Array.from({ length: COMMIT_BATCH_ROWS + 5 }, (_, i) => batcher.write(`rec-${i}`, chunk(1))),
    );
    expect(sizes).toEqual([COMMIT_BATCH_ROWS, 5]);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(COMMIT_BATCH_ROWS);
    expect(results.slice(COMMIT_BATCH_ROWS).every((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('fails only the rows the statement skipped as locked, so their writers commit them again', async () => {
    const batcher = new ProgressBatcher(async (rows) => rows.filter((r) => r.id === 'rec-locked').map((r) => r.id));
    const results = await Promise.allSettled(['rec-a', 'rec-locked', 'rec-b'].map((id) => batcher.write(id, chunk(3))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(RowLocked);
    // The committer does not count it as committed, and commits it on the next try.
    let locked = true;
    const committing = new ProgressBatcher(async (rows) => (locked ? rows.map((r) => r.id) : []));
    const failures: unknown[] = [];
    const committer = new ProgressCommitter(
      chunk(0),
      (p) => committing.write('rec-locked', p),
      (e) => failures.push(e),
    );
    committer.chunk(chunk(4));
    await committer.settled();
    expect(committer.committed.seq).toBe(0);
    expect(failures[0]).toBeInstanceOf(RowLocked);
    locked = false;
    committer.retry();
    await committer.settled();
    expect(committer.committed.seq).toBe(4);
  });
});

describe('ProgressCommitter', () => {
  it('keeps one write in flight, coalesces what arrives meanwhile into the newest, and commits it again after a failure', async () => {
    const written: number[] = [];
    let failures = 0;
    let fail = false;
    let inFlight = 0;
    let most = 0;
    const committer = new ProgressCommitter(
      chunk(0),
      async (p) => {
        most = Math.max(most, ++inFlight);
        await sleep(20);
        inFlight -= 1;
        if (fail) throw new Error('down');
        written.push(p.seq);
      },
      () => (failures += 1),
    );
    for (let seq = 1; seq <= 5; seq += 1) committer.chunk(chunk(seq));
    await committer.settled();
    expect(most).toBe(1);
    expect(written).toEqual([1, 5]);
    fail = true;
    committer.chunk(chunk(6));
    await committer.settled();
    expect(failures).toBe(1);
    expect(committer.committed.seq).toBe(5);
    fail = false;
    committer.retry();
    await committer.settled();
    expect(committer.committed.seq).toBe(6);
  });
});

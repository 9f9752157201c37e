import { describe, expect, it } from 'vitest';
import { ScanQueue } from './scan-queue.js';

/** A task that runs until its `finish` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, task: () => done.then(() => 'done') };
}

describe('ScanQueue', () => {
  it('runs two at a time, lets the next in line start as one ends, and refuses beyond the queue', async () => {
    const queue = new ScanQueue(2, 1);
    const [a, b, c] = [held(), held(), held()];
    const started: string[] = [];
    const run = (name: string, h: ReturnType<typeof held>) =>
      queue.run(() => {
        started.push(name);
        return h.task();
      });
    const runs = [run('a', a), run('b', b), run('c', c)];
    // A fourth finds both places taken and the one waiting place too: answered at once.
    expect(await queue.run(() => Promise.resolve('d'))).toBeUndefined();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual(['a', 'b']);
    a.finish();
    await runs[0];
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual(['a', 'b', 'c']);
    b.finish();
    c.finish();
    expect(await Promise.all(runs)).toEqual(['done', 'done', 'done']);
    // Every place is free again, even after a task that failed.
    await expect(queue.run(() => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect(await Promise.all([queue.run(async () => 1), queue.run(async () => 2), queue.run(async () => 3)])).toEqual([
      1, 2, 3,
    ]);
  });
});

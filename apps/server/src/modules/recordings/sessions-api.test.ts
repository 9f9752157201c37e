import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Rec = {
  id: string;
  host: { hostname: string };
  user: { email: string };
  started_on: string;
  ended_on: string | null;
  type: string;
  tunnel: string | null;
};
type Page = { recordings: Rec[]; next_cursor: string | null; total?: number };

const HOUR = 3_600_000;

/** Writes an asciicast v2 file with one event a second for `seconds` seconds. */
function writeCast(file: string, seconds: number, text: (i: number) => string): void {
  const lines = [JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 })];
  for (let i = 0; i < seconds; i += 1) lines.push(JSON.stringify([i + 0.5, 'o', text(i)]));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

describe.each(DATABASES)('sessions API on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let web: string;
  let db: string;
  const ids: Record<string, string> = {};
  const now = Date.now();

  beforeAll(async () => {
    // The "live" rows below are written straight into the table, with no recorder writing them: the
    // recovery sweep would finalise them as orphans once silent 30 s, which a loaded machine reached
    // before the tests that count them ran (CI: "tampered" for a live one, no long-running session).
    server = await startTestServer(kind, {}, { sweep: { everyMs: 24 * HOUR } });
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k', uses: 5 } })
    ).body.key;
    const register = async (hostname: string) =>
      (
        await server.call<{ id: string }>('POST', '/api/agent/register', {
          body: { key, hostname, os: 1, version: '2.0.0' },
        })
      ).body.id;
    web = await register('web-01');
    db = await register('db-01');
    const repo = server.services.repositories.recordings;
    const dir = path.join(server.dataDir, 'recordings', 'test');
    // 30 finished sessions an hour apart (alternating hosts and users), 2 live ones, one live for 2 days.
    for (let i = 0; i < 30; i += 1) {
      const file = path.join(dir, `finished-${i}.cast`);
      writeCast(file, 5, (n) => `line ${n} of session ${i}\r\n`);
      const row = await repo.create({
        type: i % 5 === 0 ? 'rdp' : 'ssh',
        agentId: i % 2 === 0 ? web : db,
        hostname: i % 2 === 0 ? 'web-01' : 'db-01',
        userId: null,
        userEmail: i % 3 === 0 ? 'alice@example.test' : 'bob@example.test',
        definitionId: null,
        definitionName: i % 2 === 0 ? 'web shell' : 'db 100%_shell',
        startedOn: new Date(now - (i + 1) * HOUR),
        endedOn: new Date(now - (i + 1) * HOUR + 5 * 60_000),
        storagePath: file,
      });
      ids[`finished-${i}`] = row.id;
    }
    for (const [name, ageHours] of [
      ['live', 0.5],
      ['long', 48],
    ] as const) {
      const file = path.join(dir, `${name}.cast`);
      writeCast(file, 3, (n) => `live ${n}\r\n`);
      const row = await repo.create({
        type: 'ssh',
        agentId: web,
        hostname: 'web-01',
        userId: null,
        userEmail: 'carol@example.test',
        definitionId: null,
        definitionName: 'web shell',
        startedOn: new Date(now - ageHours * HOUR),
        storagePath: file,
      });
      ids[name] = row.id;
    }
    // A long recording for seeking: one event a second for two hours, a needle at 5000 s.
    const long = path.join(dir, 'two-hours.cast');
    writeCast(long, 7200, (n) => (n === 5000 ? '\u001b[1mNEEDLE\u001b[0m found\r\n' : `tick ${n}\r\n`));
    ids.twoHours = (
      await repo.create({
        type: 'ssh',
        agentId: db,
        hostname: 'db-01',
        userId: null,
        userEmail: 'dave@example.test',
        definitionName: 'db 100%_shell',
        startedOn: new Date(now - 400 * HOUR),
        endedOn: new Date(now - 398 * HOUR),
        storagePath: long,
      })
    ).id;
  });
  afterAll(async () => server.stop());

  const list = (query: string, token = admin) => server.call<Page>('GET', `/api/recording${query}`, { token });

  it('answers the spec’s call (start and end only) newest first', async () => {
    const res = await list(`?start=2020-01-01&end=${encodeURIComponent(new Date(now + 1000).toISOString())}`);
    expect(res.status).toBe(200);
    expect(res.body.recordings).toHaveLength(33);
    const starts = res.body.recordings.map((r) => Date.parse(r.started_on));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
    expect(res.body.recordings[0]?.id).toBe(ids.live);
    expect(res.body.next_cursor).toBeNull();
  });

  it('pages with keyset cursors in every sort, without gaps or repeats', async () => {
    for (const sort of ['started_on', 'ended_on', 'hostname', 'user', 'type']) {
      for (const order of ['asc', 'desc']) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res: { status: number; body: Page } = await list(
            `?limit=7&sort=${sort}&order=${order}${cursor ? `&cursor=${cursor}` : ''}`,
          );
          expect(res.status).toBe(200);
          seen.push(...res.body.recordings.map((r) => r.id));
          cursor = res.body.next_cursor;
          pages += 1;
        } while (cursor && pages < 20);
        expect(new Set(seen).size, `${sort} ${order}`).toBe(33);
        expect(pages).toBe(5);
      }
    }
    // A page that ends on a live session (whose end sorts as infinity) continues too.
    const liveFirst = await list('?limit=1&sort=ended_on');
    expect(liveFirst.body.recordings[0]?.ended_on).toBeNull();
    const next = await list(`?limit=1&sort=ended_on&cursor=${liveFirst.body.next_cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.recordings[0]?.ended_on).toBeNull();
    expect(next.body.recordings[0]?.id).not.toBe(liveFirst.body.recordings[0]?.id);
    const first = await list('?limit=5&sort=hostname&order=asc');
    const hosts = first.body.recordings.map((r) => r.host.hostname);
    expect(hosts.every((h) => h === 'db-01')).toBe(true);
  });

  it('refuses cursors of another sort and forged ones with a 400 that says what to do', async () => {
    const page = await list('?limit=5');
    const other = await list(`?limit=5&sort=hostname&cursor=${page.body.next_cursor}`);
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toMatch(/another sort order/);
    for (const bad of ['garbage', Buffer.from('[1,2]').toString('base64url'), 'x'.repeat(401)]) {
      const res = await list(`?cursor=${bad}`);
      expect(res.status).toBe(400);
    }
    expect((await list('?sort=password')).status).toBe(400);
    expect((await list('?start=yesterday')).status).toBe(400);
    expect((await list('?end=%2B275760-09-13')).status).toBe(400);
    expect((await server.call('GET', '/api/agent/dashboard?start=0001-01-01', { token: admin })).status).toBe(400);
    expect((await list('?live=maybe')).status).toBe(400);
  });

  it('filters by type, live, host, user, tunnel, text and long-running, and counts', async () => {
    expect((await list('?type=rdp')).body.recordings).toHaveLength(6);
    const live = await list('?live=true&with_total=true');
    expect(live.body.recordings.map((r) => r.id).sort()).toEqual([ids.live, ids.long].sort());
    expect(live.body.total).toBe(2);
    expect((await list('?live=false')).body.recordings).toHaveLength(31);
    expect((await list(`?host=${db}`)).body.recordings).toHaveLength(16);
    expect((await list('?user=ALICE@example.test')).body.recordings).toHaveLength(10);
    expect((await list('?tunnel=web%20shell')).body.recordings).toHaveLength(17);
    expect((await list('?tunnel=all')).body.recordings).toHaveLength(33);
    // Text search treats % and _ literally.
    expect((await list('?q=100%25_')).body.recordings).toHaveLength(16);
    expect((await list('?q=%25')).body.recordings).toHaveLength(16);
    expect((await list('?q=carol')).body.recordings).toHaveLength(2);
    const longRunning = await list('?live=true&min_duration=86400&start=2001-01-01');
    expect(longRunning.body.recordings.map((r) => r.id)).toEqual([ids.long]);
    const window = await list(
      `?start=${new Date(now - 10.5 * HOUR).toISOString()}&end=${new Date(now - 5.5 * HOUR).toISOString()}&with_total=true`,
    );
    expect(window.body.total).toBe(5);
  });

  it('shows a user only the sessions of hosts they may reach', async () => {
    await server.createUser('viewer@example.test', 'viewer-password', { permissions: ['list-recording'] });
    const viewer = await server.login('viewer@example.test', 'viewer-password');
    expect((await list('', viewer)).body.recordings).toHaveLength(0);
    expect((await server.call('GET', `/api/recording/${ids.live}/data`, { token: viewer })).status).toBe(404);
    expect((await server.call('POST', `/api/recording/${ids.live}/ticket`, { token: viewer })).status).toBe(404);
    await server.createUser('nobody@example.test', 'nobody-password');
    const nobody = await server.login('nobody@example.test', 'nobody-password');
    expect((await list('', nobody)).status).toBe(403);
  });

  it('answers a session’s detail with its derived numbers', async () => {
    const res = await server.call<Record<string, unknown>>('GET', `/api/recording/${ids['finished-0']}/data`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: ids['finished-0'],
      type: 'rdp',
      duration_ms: 300_000,
      ended_on: expect.any(String) as unknown,
    });
    expect(res.body.bytes).toBe(fs.statSync(path.join(server.dataDir, 'recordings', 'test', 'finished-0.cast')).size);
    const live = await server.call<Record<string, number>>('GET', `/api/recording/${ids.long}/data`, { token: admin });
    expect(live.body.duration_ms).toBeGreaterThanOrEqual(48 * HOUR - 60_000);
    expect((await server.call('GET', `/api/recording/${crypto.randomUUID()}/data`, { token: admin })).status).toBe(404);
    expect((await server.call('GET', '/api/recording/not-a-uuid/data', { token: admin })).status).toBe(400);
  });

  it('serves the cast in ranges, with a header token or a ticket', async () => {
    const file = path.join(server.dataDir, 'recordings', 'test', 'two-hours.cast');
    const size = fs.statSync(file).size;
    const whole = fs.readFileSync(file);
    const res = await fetch(`${server.url}/api/recording/${ids.twoHours}/cast`, {
      headers: { 'authentication-token': admin, range: 'bytes=100-299' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-299/${size}`);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(whole.subarray(100, 300));
    const suffix = await fetch(`${server.url}/api/recording/${ids.twoHours}/cast`, {
      headers: { 'authentication-token': admin, range: 'bytes=-10' },
    });
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(whole.subarray(size - 10));
    const outside = await fetch(`${server.url}/api/recording/${ids.twoHours}/cast`, {
      headers: { 'authentication-token': admin, range: `bytes=${size}-` },
    });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${size}`);

    const unauthenticated = await fetch(`${server.url}/api/recording/${ids.twoHours}/cast`);
    expect(unauthenticated.status).toBe(401);
    const ticket = await server.call<{ ticket: string }>('POST', `/api/recording/${ids.twoHours}/ticket`, {
      token: admin,
    });
    expect(ticket.status).toBe(200);
    const download = await fetch(
      `${server.url}/api/recording/${ids.twoHours}/cast?ticket=${ticket.body.ticket}&download=true`,
    );
    expect(download.status, await download.clone().text()).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="db-01-[^"]*\.cast"; filename\*=UTF-8''db-01-[^"]*\.cast$/,
    );
    expect(Buffer.from(await download.arrayBuffer())).toEqual(whole);
    // A ticket opens only its own recording, and not once it was altered.
    expect((await fetch(`${server.url}/api/recording/${ids.live}/cast?ticket=${ticket.body.ticket}`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/recording/${ids.twoHours}/cast?ticket=${ticket.body.ticket}x`)).status).toBe(
      401,
    );
    // Signing out revokes the tickets made with that token.
    const other = await server.login();
    const second = await server.call<{ ticket: string }>('POST', `/api/recording/${ids.twoHours}/ticket`, {
      token: other,
    });
    await server.call('POST', '/api/logout', { token: other });
    expect((await fetch(`${server.url}/api/recording/${ids.twoHours}/cast?ticket=${second.body.ticket}`)).status).toBe(
      401,
    );
  });

  it('finds a time in a long recording and text inside it', async () => {
    const seek = async (t: number) =>
      (
        await server.call<{ t: number; offset: number; size: number; events_start: number; duration: number }>(
          'GET',
          `/api/recording/${ids.twoHours}/seek?t=${t}`,
          { token: admin },
        )
      ).body;
    const file = fs.readFileSync(path.join(server.dataDir, 'recordings', 'test', 'two-hours.cast'));
    const at = await seek(3600.2);
    expect(at.t).toBe(3600.5);
    expect(file.subarray(at.offset, at.offset + 20).toString()).toBe('[3600.5,"o","tick 36');
    expect(at.duration).toBe(7199.5);
    expect(at.size).toBe(file.length);
    expect(at.events_start).toBe(file.indexOf(0x0a) + 1);
    expect((await seek(0)).offset).toBe(at.events_start);
    expect(await seek(99_999)).toMatchObject({ offset: file.length, t: 7199.5 });
    const search = await server.call<{ hits: { t: number; offset: number; excerpt: string }[]; truncated: boolean }>(
      'GET',
      `/api/recording/${ids.twoHours}/search?q=needle%20FOUND`,
      { token: admin },
    );
    expect(search.body.hits).toEqual([
      {
        t: 5000.5,
        offset: expect.any(Number) as unknown,
        excerpt: expect.stringContaining('NEEDLE found') as unknown,
        match_start: expect.any(Number) as unknown,
        match_length: 12,
        clipped_start: expect.any(Boolean) as unknown,
        clipped_end: expect.any(Boolean) as unknown,
      },
    ]);
    // The match is where the answer says, for the console to mark it.
    const found = search.body.hits[0] as { excerpt: string; match_start: number; match_length: number } | undefined;
    expect(found?.excerpt.slice(found.match_start, found.match_start + found.match_length)).toBe('NEEDLE found');
    const hit = search.body.hits[0] as { offset: number };
    expect(file.subarray(hit.offset, hit.offset + 9).toString()).toBe('[5000.5,"');
    const many = await server.call<{ hits: unknown[]; truncated: boolean }>(
      'GET',
      `/api/recording/${ids.twoHours}/search?q=tick`,
      { token: admin },
    );
    expect(many.body).toMatchObject({ truncated: true });
    expect(many.body.hits).toHaveLength(500);
    expect((await server.call('GET', `/api/recording/${ids.twoHours}/search?q=`, { token: admin })).status).toBe(400);
  });

  it('verifies a recording the gateway signed, and shows tampering', async () => {
    const live = await server.services.recordings.start({
      type: 'ssh',
      agentId: web,
      hostname: 'web-01',
      userId: null,
      userEmail: 'erin@example.test',
      definitionId: null as unknown as string,
      definitionName: 'web shell',
      width: 80,
      height: 24,
    });
    const verify = () =>
      server.call<{ status: string; message: string }>('GET', `/api/recording/${live.id}/verify`, { token: admin });
    live.recorder.output(Buffer.from('hello from the host\r\n'));
    await live.recorder.flush();
    expect((await verify()).body.status).toBe('live');
    await server.services.recordings.finish(live, 'closed');
    expect((await verify()).body).toMatchObject({
      status: 'intact',
      message: expect.stringMatching(/^Intact/) as unknown,
    });
    const file = live.row.storagePath;
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('hello', 'HELLO'));
    expect((await verify()).body).toMatchObject({
      status: 'tampered',
      message: expect.stringMatching(/changed/) as unknown,
    });
    expect((await server.call('GET', `/api/recording/${ids.live}/verify`, { token: admin })).body).toMatchObject({
      status: 'live',
    });
  });

  it('counts sessions into the dashboard’s buckets', async () => {
    // The last 24 hours are 24 whole hours (Europe/Paris is whole hours from UTC): they begin at
    // the start of the hour 23 hours before the current one, which moves if the clock passes an
    // hour while this file runs. The request is asked again if it straddled an hour.
    const windowStart = () => Math.floor(Date.now() / HOUR) * HOUR - 23 * HOUR;
    let from: number;
    let res: Awaited<ReturnType<typeof dashboard>>;
    do {
      from = windowStart();
      res = await dashboard();
    } while (windowStart() !== from);
    const started = [
      ...Array.from({ length: 30 }, (_, i) => now - (i + 1) * HOUR),
      now - 0.5 * HOUR, // live
      now - 48 * HOUR, // long
      now - 400 * HOUR, // two hours long
    ];
    expect(res.status).toBe(200);
    const r = res.body.recordings;
    expect(r.past24Hours).toHaveLength(24);
    expect(r.pastWeek).toHaveLength(7);
    expect(r.pastMonth).toHaveLength(30);
    // The seeded sessions that fall in those hours, plus erin's from the test above.
    expect(r.totalPast24Hours).toBe(started.filter((t) => t >= from).length + 1);
    expect(r.totalPastWeek).toBe(33);
    expect(r.totalAll).toBe(34);
    expect(r.totalLongRunning).toBe(1);
    expect(r.live).toBe(2);
    expect(r.pastAll.length).toBeGreaterThanOrEqual(17);
    expect(res.body.agents_dashboard).toMatchObject({ total: 2, connected: 0 });
    expect(res.body.agents_dashboard.days.length).toBeGreaterThanOrEqual(30);
    expect((await server.call('GET', '/api/agent/dashboard?tz=Mars/Olympus', { token: admin })).status).toBe(400);
  });

  const dashboard = () =>
    server.call<{
      recordings: Record<string, unknown> & {
        past24Hours: { sessions: number }[];
        pastWeek: unknown[];
        pastMonth: unknown[];
        pastAll: unknown[];
      };
      agents_dashboard: { total: number; connected: number; days: unknown[] };
    }>('GET', '/api/agent/dashboard?tz=Europe/Paris', { token: admin });
});

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { recordings } from '../../db/schema.js';
import { DATABASES, type TestServer, openTestDatabase, startTestServer } from '../../test/harness.js';
import type { Principal } from '../auth/principal.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import { DashboardService } from './dashboard.service.js';
import { addDays, countInto, dayLabel, hourLabel, startOfDay } from './time-buckets.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Zones with whole-hour, half-hour and quarter-hour offsets, and with changes of clocks. */
const ZONES = ['UTC', 'Europe/Paris', 'America/St_Johns', 'Asia/Kathmandu', 'Pacific/Chatham'];

type Charts = ResponseOf<Routes['getDashboard']>['recordings'];
type Bucket = Charts['past24Hours'][number];

/**
 * The dashboard's session charts as they were computed before migration 0027, on every request
 * from the recordings themselves (the queries and the bucketing of that version, word for word):
 * the reference the kept counts must equal.
 */
async function perRequestCharts(db: Db, tz: string, agentIds?: string[]): Promise<Charts> {
  const HOUR_MS = HOUR;
  const MAX_ALL_DAYS = 3660;
  const visible = agentIds ? inArray(recordings.agentId, agentIds) : undefined;
  const buckets = (starts: Date[], end: Date, points: { at: Date; n: number }[], label: (d: Date) => string) => {
    const counts = countInto(starts, end, points);
    return starts.map((start, i): Bucket => ({
      start: start.toISOString(),
      label: label(start),
      sessions: counts[i] ?? 0,
    }));
  };
  const total = (list: Bucket[]) => list.reduce((sum, b) => sum + b.sessions, 0);
  const now = new Date();
  const today = startOfDay(now, tz);
  const tomorrow = addDays(today, 1, tz);
  const [firstRow] = await db
    .select({ at: recordings.startedOn })
    .from(recordings)
    .where(visible)
    .orderBy(asc(recordings.startedOn), asc(recordings.id))
    .limit(1);
  const first = firstRow?.at;
  const allFrom = first
    ? startOfDay(new Date(Math.max(first.getTime(), tomorrow.getTime() - MAX_ALL_DAYS * DAY)), tz)
    : today;
  const monthFrom = addDays(today, -29, tz);
  const earliest = new Date(Math.min(allFrom.getTime(), monthFrom.getTime(), now.getTime() - 24 * HOUR_MS));
  const points = (
    await db
      .select({
        at: sql<string>`date_bin('15 minutes', ${recordings.startedOn}, timestamptz '2000-01-01 00:00:00+00')`,
        n: sql<number>`count(*)::int`,
      })
      .from(recordings)
      .where(and(gte(recordings.startedOn, earliest), visible))
      .groupBy(sql`1`)
  ).map((r) => ({ at: new Date(r.at), n: r.n }));
  const hourStart = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS);
  const hours = Array.from({ length: 24 }, (_, i) => new Date(hourStart.getTime() + i * HOUR_MS));
  const days = (from: Date, count: number) => Array.from({ length: count }, (_, i) => addDays(from, i, tz));
  const dayCount = Math.max(1, Math.round((tomorrow.getTime() - allFrom.getTime()) / DAY));
  const past24Hours = buckets(hours, new Date(hourStart.getTime() + 24 * HOUR_MS), points, (d) => hourLabel(d, tz));
  const pastWeek = buckets(days(addDays(today, -6, tz), 7), tomorrow, points, (d) => dayLabel(d, tz));
  const pastMonth = buckets(days(monthFrom, 30), tomorrow, points, (d) => dayLabel(d, tz));
  const pastAll = buckets(days(allFrom, dayCount), tomorrow, points, (d) => dayLabel(d, tz));
  const longRows = await db
    .select({ startedOn: recordings.startedOn, live: sql<boolean>`${recordings.endedOn} IS NULL` })
    .from(recordings)
    .where(
      and(
        visible,
        lte(recordings.startedOn, sql`now() - interval '24 hours'`),
        sql`coalesce(${recordings.endedOn}, now()) - ${recordings.startedOn} >= interval '24 hours'`,
      ),
    )
    .limit(100_000);
  const long = { starts: longRows.map((r) => r.startedOn), liveNow: longRows.filter((r) => r.live).length };
  const longFrom = long.starts.length
    ? startOfDay(new Date(Math.min(...long.starts.map((d) => d.getTime()))), tz)
    : today;
  const longDays = Math.max(1, Math.round((tomorrow.getTime() - longFrom.getTime()) / DAY));
  const longRunning = buckets(
    days(longFrom, Math.min(longDays, MAX_ALL_DAYS)),
    tomorrow,
    long.starts.map((at) => ({ at, n: 1 })),
    (d) => dayLabel(d, tz),
  );
  const [live] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recordings)
    .where(and(isNull(recordings.endedOn), visible));
  return {
    past24Hours,
    pastWeek,
    pastMonth,
    pastAll,
    longRunning,
    totalPast24Hours: total(past24Hours),
    totalPastWeek: total(pastWeek),
    totalPastMonth: total(pastMonth),
    totalAll: total(pastAll),
    totalLongRunning: long.liveNow,
    live: live?.n ?? 0,
  };
}

/** recording_starts next to the same counts made from the recordings (both sorted by bucket). */
async function keptAndCounted(db: Db) {
  const kept = await db.execute<{ bucket: string; sessions: number }>(
    sql`SELECT to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS bucket, sessions FROM recording_starts ORDER BY bucket`,
  );
  const counted = await db.execute<{ bucket: string; sessions: number }>(
    sql`SELECT to_char(date_bin('15 minutes', started_on, timestamptz '2000-01-01 00:00:00+00') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS bucket,
               count(*)::int AS sessions FROM recordings GROUP BY 1 ORDER BY 1`,
  );
  return { kept: rowsOf(kept), counted: rowsOf(counted) };
}

/** The rows of db.execute's answer (node-postgres and PGlite shape it differently). */
function rowsOf(answer: unknown): unknown[] {
  return 'rows' in (answer as object) ? (answer as { rows: unknown[] }).rows : (answer as unknown[]);
}

describe.each(DATABASES)('dashboard counts kept by migration 0027 on %s', (kind) => {
  let server: TestServer;
  let principal: Principal;
  let web: string;
  let db: string;
  let count = 0;

  const repo = () => server.services.repositories.recordings;
  const make = (at: number, minutes: number | null, agent?: string) => {
    count += 1;
    const agentId = agent ?? (count % 2 === 0 ? web : db);
    return repo().create({
      type: 'ssh',
      agentId,
      hostname: agentId === web ? 'web-01' : 'db-01',
      userEmail: `user${count % 5}@example.test`,
      startedOn: new Date(at),
      endedOn: minutes === null ? null : new Date(at + minutes * MINUTE),
      storagePath: `/nonexistent/${kind}-${count}.cast`,
    });
  };

  /** A dashboard of a caller who reaches these hosts (all of them: undefined), as the policy would say. */
  const dashboardOf = (visible: string[] | undefined) => {
    const s = server.services;
    const policy = { reachableAgents: () => Promise.resolve(visible) } as unknown as AccessPolicy;
    return new DashboardService(s.database.db, s.repositories.recordings, s.repositories.agents, policy);
  };

  /**
   * recording_starts holds exactly the counts made from the recordings, and every zone's charts,
   * of every host and of some, equal the ones computed per request, at one instant.
   */
  const expectSameDashboards = async () => {
    const { kept: rows, counted } = await keptAndCounted(server.services.database.db);
    expect(rows).toEqual(counted);
    // The navigation's total of sessions (of every host) from the same counts.
    const [all] = rowsOf(await server.services.database.db.execute(sql`SELECT count(*)::int AS n FROM recordings`));
    expect(await repo().total()).toBe((all as { n: number }).n);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const visible of [undefined, [web], [db], []]) {
        for (const tz of ZONES) {
          vi.setSystemTime(Date.now());
          const want = await perRequestCharts(server.services.database.db, tz, visible);
          const got = await dashboardOf(visible).dashboard(principal, { tz });
          expect(got.recordings, `${tz}, hosts ${visible?.join(',') ?? 'all'}`).toEqual(want);
          if (visible === undefined) expect(got.recordings.totalAll).toBeGreaterThan(0);
        }
      }
    } finally {
      vi.useRealTimers();
    }
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    const token = await server.login();
    const found = await server.services.auth.authenticate(token);
    if (!found) throw new Error('the admin token did not authenticate');
    principal = found;
    const s = server.services;
    const agent = (hostname: string) =>
      s.repositories.agents.create({
        hostname,
        os: 1,
        version: '2.0.0',
        credentialHash: `${hostname}-credential`,
        config: null,
        registeredWith: crypto.randomUUID(),
      });
    web = await agent('web-01');
    db = await agent('db-01');
  });
  afterAll(async () => server.stop());
  afterEach(() => vi.useRealTimers());

  it('equals the per-request counts after single inserts, a bulk insert, ends, re-timing and retention', async () => {
    const now = Date.now();
    // Every 7 h 13 min over 100 days, two on some quarter-hour edges, one each side of an edge.
    for (let i = 0; i < 330; i += 1) await make(now - i * (7 * HOUR + 13 * MINUTE), 5 + (i % 50));
    const edge = Math.floor(now / (15 * MINUTE)) * 15 * MINUTE - 3 * DAY;
    for (const at of [edge, edge, edge - 1, edge + 1, edge - 15 * MINUTE]) await make(at, 10);
    // Years ago (the "all" chart), live ones, a live one for two days, ended ones of 23 h 59 min and of 3 days.
    await make(now - 800 * DAY, 30);
    await make(now - 20 * MINUTE, null);
    await make(now - 2 * DAY, null, web);
    await make(now - 10 * DAY, 24 * 60 - 1);
    await make(now - 12 * DAY, 3 * 24 * 60, db);
    await expectSameDashboards();

    // One INSERT of many rows, several in one quarter hour.
    await server.services.database.db.insert(recordings).values(
      Array.from({ length: 40 }, (_, i) => ({
        type: 'rdp',
        agentId: i % 3 === 0 ? web : db,
        hostname: 'bulk',
        userEmail: 'bulk@example.test',
        startedOn: new Date(now - 5 * DAY - (i % 4) * 5 * MINUTE - Math.floor(i / 4) * 3 * HOUR),
        endedOn: new Date(now - 4 * DAY),
        storagePath: `/nonexistent/${kind}-bulk-${i}.cast`,
      })),
    );
    await expectSameDashboards();

    // Live ones end (the long-running live one becomes a long-running ended one).
    const live = await server.services.database.db
      .select()
      .from(recordings)
      .where(sql`${recordings.endedOn} IS NULL`);
    expect(live).toHaveLength(2);
    for (const row of live) await repo().finish(row.id, {});
    await expectSameDashboards();

    // A start moved to another quarter hour (and to the same one: nothing changes).
    const [moved] = await server.services.database.db
      .update(recordings)
      .set({ startedOn: new Date(now - 33 * DAY) })
      .where(eq(recordings.hostname, 'bulk'))
      .returning({ id: recordings.id });
    expect(moved).toBeDefined();
    await server.services.database.db
      .update(recordings)
      .set({ startedOn: sql`${recordings.startedOn} + interval '1 second'` })
      .where(eq(recordings.agentId, web));
    await expectSameDashboards();

    // Retention removes what ended over 30 days ago; the emptied quarter hours go from the table.
    const saved = await server.call('POST', '/api/settings', {
      token: await server.login(),
      body: { recording_retention_days: 30 },
    });
    expect(saved.status).toBe(200);
    expect(await server.services.retention.sweep()).toBeGreaterThan(100);
    await expectSameDashboards();
    const zero = rowsOf(
      await server.services.database.db.execute(
        sql`SELECT count(*)::int AS n FROM recording_starts WHERE sessions <= 0`,
      ),
    );
    expect(zero).toEqual([{ n: 0 }]);
  });

  it('stays exact under concurrent inserts and deletes on one quarter hour', async () => {
    const at = Math.floor(Date.now() / (15 * MINUTE)) * 15 * MINUTE - 2 * DAY + 7 * MINUTE;
    const rows = await Promise.all(Array.from({ length: 60 }, (_, i) => make(at + i * 1000, 5)));
    await Promise.all([
      ...rows.slice(0, 30).map((r) => server.services.database.db.delete(recordings).where(eq(recordings.id, r.id))),
      ...Array.from({ length: 30 }, (_, i) => make(at + i * 2000, 5)),
    ]);
    await expectSameDashboards();
  });

  it('counts a truncated table as empty', async () => {
    await server.services.database.db.execute(sql`TRUNCATE recordings CASCADE`);
    const { kept: rows, counted } = await keptAndCounted(server.services.database.db);
    expect(counted).toEqual([]);
    expect(rows).toEqual([]);
    await make(Date.now() - HOUR, 5);
    await expectSameDashboards();
  });
});

describe.each(DATABASES)('migration 0027 on %s', (kind) => {
  it('counts the recordings that existed before it', async () => {
    const { database, drop } = await openTestDatabase(kind);
    try {
      const at = migrations.findIndex((m) => m.id === '0027-recording-starts');
      expect(at).toBeGreaterThan(0);
      await database.exec(
        'CREATE TABLE schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const m of migrations.slice(0, at)) {
        await database.exec(m.sql);
        await database.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      }
      await database.exec(
        `INSERT INTO recordings (type, hostname, user_email, started_on, ended_on, storage_path)
         SELECT 'ssh', 'h', 'u@example.test', now() - i * interval '37 minutes', now(), '/nonexistent/' || i
         FROM generate_series(1, 500) AS i`,
      );
      expect(await migrate(database)).toContain('0027-recording-starts');
      const { kept: rows, counted } = await keptAndCounted(database.db);
      expect(counted.length).toBeGreaterThan(100);
      expect(rows).toEqual(counted);
    } finally {
      await drop();
    }
  });
});

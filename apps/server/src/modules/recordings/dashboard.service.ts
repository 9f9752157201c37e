import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { and, asc, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { HttpError } from '../../http/errors.js';
import type { RecordingsRepository } from '../../recordings/recordings.repository.js';
import type { AgentsRepository } from '../agents/agents.repository.js';
import { agents } from '../../db/schema.js';
import type { Principal } from '../auth/principal.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import { addDays, countInto, dayLabel, hourLabel, isTimeZone, startOfDay } from './time-buckets.js';

type Dashboard = ResponseOf<Routes['getDashboard']>;
type Bucket = Dashboard['recordings']['past24Hours'][number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** "All" has one bucket a day since the first session; beyond this many days, the oldest are left out. */
const MAX_ALL_DAYS = 3660;

function buckets(starts: Date[], end: Date, points: { at: Date; n: number }[], label: (d: Date) => string): Bucket[] {
  const counts = countInto(starts, end, points);
  return starts.map((start, i) => ({ start: start.toISOString(), label: label(start), sessions: counts[i] ?? 0 }));
}

const total = (list: Bucket[]) => list.reduce((sum, b) => sum + b.sessions, 0);

/**
 * The dashboard (spec §3 Session charts, §9): sessions in 24 hourly buckets, 7 and 30 daily
 * buckets, every day since the first session, and long-running ones; agents connected and
 * enrolled per day. Days begin at midnight in the caller's time zone.
 */
export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly recordings: RecordingsRepository,
    private readonly agents: AgentsRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async dashboard(principal: Principal, query: { start?: string; end?: string; tz?: string }): Promise<Dashboard> {
    const tz = query.tz ?? 'UTC';
    if (!isTimeZone(tz)) throw new HttpError(400, `tz must be a time zone such as Europe/Paris or UTC, not ${tz}`);
    const now = new Date();
    const end = query.end ? new Date(query.end) : now;
    const start = query.start ? new Date(query.start) : new Date(end.getTime() - 30 * DAY);
    const outOfRange = (d: Date) => Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1900 || d.getUTCFullYear() > 9999;
    if (outOfRange(start) || outOfRange(end))
      throw new HttpError(400, 'start and end must be dates, such as 2024-05-01 or 2024-05-01T12:00:00Z');
    if (start > end) throw new HttpError(400, 'start must be before end');

    const visible = await this.policy.reachableAgents(principal);
    // Independent of the charts' counts: asked at once (PostgreSQL answers them on other connections).
    const others = Promise.all([
      this.recordings.longRunning(visible),
      this.recordings.liveCount(visible),
      this.agentDays(start, end, tz),
    ]);
    // Not left unhandled while the counts are awaited; the await below throws it.
    others.catch(() => undefined);
    const today = startOfDay(now, tz);
    const tomorrow = addDays(today, 1, tz);
    const first = await this.recordings.firstStart(visible);
    const allFrom = first
      ? startOfDay(new Date(Math.max(first.getTime(), tomorrow.getTime() - MAX_ALL_DAYS * DAY)), tz)
      : today;
    const monthFrom = addDays(today, -29, tz);
    const hourStart = new Date(Math.floor(now.getTime() / HOUR) * HOUR - 23 * HOUR);
    const hourEnd = new Date(hourStart.getTime() + 24 * HOUR);
    const hours = Array.from({ length: 24 }, (_, i) => new Date(hourStart.getTime() + i * HOUR));
    const days = (from: Date, count: number) => Array.from({ length: count }, (_, i) => addDays(from, i, tz));
    const dayCount = Math.max(1, Math.round((tomorrow.getTime() - allFrom.getTime()) / DAY));
    const weekDays = days(addDays(today, -6, tz), 7);
    const monthDays = days(monthFrom, 30);
    const allDays = days(allFrom, dayCount);

    // Every chart's edges in one ascending list: the database counts the starts between neighbours
    // (each chart's bucket is a run of those intervals), and each interval counts at its start.
    const edges = [
      ...new Set([...hours, hourEnd, ...weekDays, ...monthDays, ...allDays, tomorrow].map((d) => d.getTime())),
    ]
      .sort((a, b) => a - b)
      .map((t) => new Date(t));
    const counts = await this.recordings.startsWithin(edges, visible);
    const points = counts.map((n, i) => ({ at: edges[i]!, n }));

    const past24Hours = buckets(hours, hourEnd, points, (d) => hourLabel(d, tz));
    const pastWeek = buckets(weekDays, tomorrow, points, (d) => dayLabel(d, tz));
    const pastMonth = buckets(monthDays, tomorrow, points, (d) => dayLabel(d, tz));
    const pastAll = buckets(allDays, tomorrow, points, (d) => dayLabel(d, tz));
    const [long, live, agentsDashboard] = await others;
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

    return {
      recordings: {
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
        live,
      },
      agents_dashboard: agentsDashboard,
    };
  }

  /** Agents connected at some time of each day (from their audit trail) and enrolled by its end. */
  private async agentDays(start: Date, end: Date, tz: string): Promise<Dashboard['agents_dashboard']> {
    const counts = await this.agents.counts();
    const first = startOfDay(start, tz);
    const dayStarts: Date[] = [];
    for (let d = first; d < end && dayStarts.length < 400; d = addDays(d, 1, tz)) dayStarts.push(d);
    const actions = ['agent.connected', 'agent.disconnected'];
    // Each agent's state when the window opens, then every change inside it.
    const before = await this.db
      .selectDistinctOn([auditLog.target], { target: auditLog.target, action: auditLog.action })
      .from(auditLog)
      .where(and(inArray(auditLog.action, actions), lt(auditLog.at, first)))
      .orderBy(auditLog.target, sql`${auditLog.at} DESC`, sql`${auditLog.id} DESC`);
    const changes = await this.db
      .select({ target: auditLog.target, action: auditLog.action, at: auditLog.at })
      .from(auditLog)
      .where(and(inArray(auditLog.action, actions), gte(auditLog.at, first), lte(auditLog.at, end)))
      .orderBy(asc(auditLog.at), asc(auditLog.id))
      .limit(200_000);
    const enrolled = await this.db.select({ createdAt: agents.createdAt }).from(agents);

    const connectedOn = dayStarts.map(() => new Set<string>());
    const dayOf = (at: Date) => {
      let i = dayStarts.length - 1;
      while (i > 0 && dayStarts[i]! > at) i -= 1;
      return i;
    };
    const since = new Map<string, number>();
    for (const row of before) if (row.target && row.action === 'agent.connected') since.set(row.target, 0);
    const close = (agent: string, untilDay: number) => {
      const from = since.get(agent);
      if (from === undefined) return;
      for (let d = from; d <= untilDay; d += 1) connectedOn[d]?.add(agent);
      since.delete(agent);
    };
    for (const change of changes) {
      if (!change.target) continue;
      const day = dayOf(change.at);
      if (change.action === 'agent.connected') {
        if (!since.has(change.target)) since.set(change.target, day);
      } else close(change.target, day);
    }
    for (const agent of [...since.keys()]) close(agent, dayStarts.length - 1);

    return {
      connected: counts.connected,
      total: counts.total,
      days: dayStarts.map((d, i) => {
        const dayEnd = dayStarts[i + 1] ?? addDays(d, 1, tz);
        return {
          start: d.toISOString(),
          label: dayLabel(d, tz),
          connected: connectedOn[i]?.size ?? 0,
          total: enrolled.filter((a) => a.createdAt < dayEnd).length,
        };
      }),
    };
  }
}

import { Prng, seedOf } from '../prng';
import type { Answer, MockState } from '../types';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
type Bucket = Answer<'getDashboard'>['recordings']['past24Hours'][number];

/** Local midnight of a moment, `days` days later (the browser's zone: the console sends its own as tz). */
function dayStart(at: number, days = 0): number {
  const d = new Date(at);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days).getTime();
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayLabel = (at: number) => {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
const hourLabel = (at: number) => `${pad(new Date(at).getHours())}:00`;

function buckets(starts: number[], end: number, times: number[], label: (at: number) => string): Bucket[] {
  return starts.map((start, i) => {
    const next = starts[i + 1] ?? end;
    return {
      start: new Date(start).toISOString(),
      label: label(start),
      sessions: times.filter((t) => t >= start && t < next).length,
    };
  });
}

function days(from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = from; d < to && out.length < 400; d = dayStart(d, 1)) out.push(d);
  return out;
}

const sum = (list: Bucket[]) => list.reduce((total, bucket) => total + bucket.sessions, 0);

/** GET /api/agent/dashboard from the mock sessions and hosts, in the browser's time zone. */
export function dashboardOf(state: MockState, query: URLSearchParams): Answer<'getDashboard'> {
  const now = Date.now();
  const today = dayStart(now);
  const tomorrow = dayStart(now, 1);
  const starts = state.recordings.map((row) => Date.parse(row.started_on));
  const live = state.recordings.filter((row) => row.ended_on === null);
  const long = live.map((row) => Date.parse(row.started_on)).filter((start) => now - start >= DAY);
  const hourStart = Math.floor(now / HOUR) * HOUR - 23 * HOUR;
  const hours = Array.from({ length: 24 }, (_, i) => hourStart + i * HOUR);
  const past24Hours = buckets(hours, hourStart + 24 * HOUR, starts, hourLabel);
  const pastWeek = buckets(days(dayStart(now, -6), tomorrow), tomorrow, starts, dayLabel);
  const pastMonth = buckets(days(dayStart(now, -29), tomorrow), tomorrow, starts, dayLabel);
  const first = Math.min(today, ...starts);
  const pastAll = buckets(days(dayStart(first), tomorrow), tomorrow, starts, dayLabel);
  const longRunning = buckets(days(dayStart(Math.min(today, ...long)), tomorrow), tomorrow, long, dayLabel);

  const end = query.get('end') ? Date.parse(query.get('end') ?? '') || now : now;
  const start = query.get('start') ? Date.parse(query.get('start') ?? '') || end - 30 * DAY : end - 30 * DAY;
  const agentDays = days(dayStart(start), end).map((day) => {
    const dayEnd = dayStart(day, 1);
    const enrolled = state.agents.filter((agent) => Date.parse(agent.created_at) < dayEnd);
    // Connected that day: enrolled, seen since, and not among the few hosts off on a given day.
    const connected = enrolled.filter((agent) => {
      const seen = agent.connected ? now : agent.last_seen ? Date.parse(agent.last_seen) : 0;
      return seen >= day && !new Prng(seedOf(`${agent.id}:${dayLabel(day)}`)).chance(0.06);
    });
    return {
      start: new Date(day).toISOString(),
      label: dayLabel(day),
      connected: connected.length,
      total: enrolled.length,
    };
  });

  return {
    recordings: {
      past24Hours,
      pastWeek,
      pastMonth,
      pastAll,
      longRunning,
      totalPast24Hours: sum(past24Hours),
      totalPastWeek: sum(pastWeek),
      totalPastMonth: sum(pastMonth),
      totalAll: state.recordings.length,
      totalLongRunning: long.length,
      live: live.length,
    },
    agents_dashboard: {
      connected: state.agents.filter((agent) => agent.connected).length,
      total: state.agents.length,
      days: agentDays,
    },
  };
}

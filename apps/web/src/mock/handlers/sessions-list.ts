import { MockError } from '../http';
import type { Answer, MockRecording, MockState } from '../types';

const SORTS = ['started_on', 'ended_on', 'hostname', 'user', 'type', 'kind'] as const;
type Sort = (typeof SORTS)[number];

function sortValue(row: MockRecording, sort: Sort, now: number): string | number {
  switch (sort) {
    case 'started_on':
      return Date.parse(row.started_on);
    case 'ended_on':
      // A live session has not ended: it sorts as ending now.
      return row.ended_on === null ? now : Date.parse(row.ended_on);
    case 'hostname':
      return row.host.hostname;
    case 'user':
      return row.user.email;
    case 'type':
      return row.type;
    case 'kind':
      return row.kind ?? '';
  }
}

function compare(a: string | number, b: string | number): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

/** An opaque cursor: the id of the last row of the page (base64url). */
function cursorOf(row: MockRecording): string {
  return btoa(JSON.stringify({ after: row.id })).replace(/=+$/, '');
}

function afterOf(cursor: string): string {
  try {
    const parsed = JSON.parse(atob(cursor)) as { after?: unknown };
    if (typeof parsed.after === 'string') return parsed.after;
  } catch {
    // Falls through to the refusal below.
  }
  throw new MockError(400, 'cursor is not one this server gave');
}

function date(text: string | null, fallback: number): number {
  if (!text) return fallback;
  const value = Date.parse(text);
  if (Number.isNaN(value)) throw new MockError(400, 'start and end must be dates, such as 2024-05-01');
  return value;
}

/**
 * GET /api/recording: the filters of the contract (window, type, live, host, user, tunnel, text,
 * minimum duration), sorted with the id as tie-break, one page after the cursor's row.
 */
export function listSessions(state: MockState, query: URLSearchParams): Answer<'listRecordings'> {
  const now = Date.now();
  const start = date(query.get('start'), Date.parse('2020-01-01T00:00:00Z'));
  const end = date(query.get('end'), now);
  const sort = SORTS.find((s) => s === query.get('sort')) ?? 'started_on';
  const order = query.get('order') === 'asc' ? 1 : -1;
  const limit = Math.min(10_000, Math.max(1, Number(query.get('limit') ?? 1000) || 1000));
  const live = query.get('live');
  const hold = query.get('hold');
  const tunnel = query.get('tunnel');
  const q = (query.get('q') ?? '').trim().toLowerCase();
  const minDuration = Number(query.get('min_duration') ?? 0) || 0;
  const matches = state.recordings
    .filter((row) => {
      const started = Date.parse(row.started_on);
      const ended = row.ended_on === null ? now : Date.parse(row.ended_on);
      return (
        started >= start &&
        started <= end &&
        (!query.get('type') || row.type === query.get('type')) &&
        (!query.get('kind') || row.kind === query.get('kind')) &&
        (live === null || (live === 'true') === (row.ended_on === null)) &&
        (hold === null || (hold === 'true') === row.legal_hold.held) &&
        (!query.get('host') || row.host.id === query.get('host')) &&
        (!query.get('user') || row.user.email === query.get('user')) &&
        (!tunnel || tunnel === 'all' || row.tunnel === tunnel) &&
        (q === '' || [row.host.hostname, row.user.email, row.tunnel ?? ''].some((f) => f.toLowerCase().includes(q))) &&
        (ended - started) / 1000 >= minDuration
      );
    })
    .sort((a, b) => order * (compare(sortValue(a, sort, now), sortValue(b, sort, now)) || a.id.localeCompare(b.id)));
  const cursor = query.get('cursor');
  const from = cursor ? matches.findIndex((row) => row.id === afterOf(cursor)) + 1 : 0;
  const page = matches.slice(from, from + limit);
  const last = page.at(-1);
  return {
    recordings: page.map(({ width: _w, height: _h, login: _l, tunnel_id: _t, user_id: _u, ...row }) => row),
    next_cursor: last && from + limit < matches.length ? cursorOf(last) : null,
    ...(query.get('with_total') === 'true' ? { total: matches.length } : {}),
  };
}

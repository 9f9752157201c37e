import { RECORDING_SEARCH_MAX, RECORDING_SEARCH_MIN } from '@gatehouse/contracts';
import { type MockCast, searchCast } from '../cast';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import type { Answer, MockRecording, MockState } from '../types';

// eslint-disable-next-line no-control-regex -- what the server refuses in q
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/** The line around a hit as the server answers it: a snippet and where the match lies in it. */
function hitOf(excerpt: string, q: string, t: number): Answer<'searchRecordings'>['sessions'][number]['hits'][number] {
  const at = excerpt.toLowerCase().indexOf(q.toLowerCase());
  return {
    t,
    kind: 'output',
    snippet: excerpt,
    match_start: Math.max(0, at),
    match_length: at >= 0 ? q.length : 0,
    clipped_start: false,
    clipped_end: false,
  };
}

/** Search across recordings in the mock: the terminal output of ended SSH sessions, newest first. */
export function searchHandlers(
  state: MockState,
  context: MockContext,
  castOf: (row: MockRecording) => MockCast,
): NamedHandler[] {
  return [
    route(context, 'searchRecordings', ({ query }): Answer<'searchRecordings'> => {
      const q = query.get('q') ?? '';
      if (q.trim().length < RECORDING_SEARCH_MIN || q.length > RECORDING_SEARCH_MAX)
        throw new MockError(400, `q is ${RECORDING_SEARCH_MIN} to ${RECORDING_SEARCH_MAX} characters`);
      if (CONTROL.test(q)) throw new MockError(400, 'q is one line of text, without control characters');
      const kinds = (query.get('kind') ?? '').split(',').filter(Boolean);
      const since = Date.parse(query.get('since') ?? '2020-01-01T00:00:00Z');
      const limit = Math.min(50, Math.max(1, Number(query.get('limit') ?? 20) || 20));
      const rows = state.recordings
        .filter((row) => row.type === 'ssh' && row.ended_on !== null && Date.parse(row.started_on) >= since)
        .sort((a, b) => b.started_on.localeCompare(a.started_on) || b.id.localeCompare(a.id));
      const cursor = query.get('cursor');
      const from = cursor ? rows.findIndex((row) => row.id === cursor) + 1 : 0;
      const sessions: Answer<'searchRecordings'>['sessions'] = [];
      let next: string | null = null;
      if (kinds.length > 0 && !kinds.includes('output')) return { sessions, next_cursor: null };
      for (const row of rows.slice(from)) {
        const found = searchCast(castOf(row), q);
        if (found.hits.length === 0) continue;
        if (sessions.length === limit) {
          next = sessions.at(-1)?.recording.id ?? null;
          break;
        }
        const { width: _w, height: _h, login: _l, tunnel_id: _t, user_id: _u, ...recording } = row;
        sessions.push({
          recording,
          hits: found.hits.slice(0, 5).map((h) => hitOf(h.excerpt, q, h.t)),
          hit_count: found.hits.length,
          truncated: false,
        });
      }
      return { sessions, next_cursor: next };
    }),
  ];
}

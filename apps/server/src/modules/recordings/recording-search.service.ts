import {
  type QueryOf,
  RECORDING_SEARCH_COUNT_CAP,
  RECORDING_SEARCH_HITS_PER_SESSION,
  type ResponseOf,
  type Routes,
} from '@gatehouse/contracts';
import { HttpError } from '../../http/errors.js';
import { RecordingTextRepository } from '../../recordings/recording-text.repository.js';
import { snippet } from '../../recordings/snippet.js';
import type { Principal } from '../auth/principal.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import { parseDate, toRecording } from './sessions.service.js';

type SearchQuery = QueryOf<Routes['searchRecordings']>;
type SearchAnswer = ResponseOf<Routes['searchRecordings']>;

function encodeCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

function decodeCursor(cursor: string): { startedOn: string; id: string } {
  const bad = new HttpError(400, 'cursor is not one this search gave out; start again without it.');
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad;
  }
  if (!Array.isArray(parts) || parts.length !== 2) throw bad;
  const [startedOn, id] = parts as unknown[];
  if (
    typeof startedOn !== 'string' ||
    typeof id !== 'string' ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
  )
    throw bad;
  // Microseconds since 1970 of the last session's start, as the database answered them.
  if (!/^-?\d{1,17}$/.test(startedOn)) throw bad;
  return { startedOn, id };
}

/**
 * Search across recordings (issue 16): which sessions printed, ran, typed or transferred a text.
 * What a searcher may see is what the session list shows them: the route needs list-recording,
 * and the hosts come from the same policy call the list makes (AccessPolicy.reachableAgents).
 */
export class RecordingSearchService {
  constructor(
    private readonly text: RecordingTextRepository,
    private readonly policy: AccessPolicy,
  ) {}

  /** One page of sessions with hits, newest first. */
  async search(principal: Principal, query: SearchQuery): Promise<SearchAnswer> {
    const start = parseDate(query.since, 'since') ?? new Date('2020-01-01T00:00:00Z');
    const end = parseDate(query.until, 'until') ?? new Date();
    const pattern = RecordingTextRepository.pattern(query.q);
    const kinds = query.kind?.length ? query.kind : undefined;
    const page = await this.text.sessions({
      pattern,
      kinds,
      start,
      end,
      agentIds: await this.policy.reachableAgents(principal),
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit: query.limit,
    });
    const ids = page.rows.map((r) => r.row.id);
    const found = await this.text.hits(
      ids,
      pattern,
      kinds,
      RECORDING_SEARCH_HITS_PER_SESSION,
      RECORDING_SEARCH_COUNT_CAP,
    );
    const last = page.rows.at(-1);
    return {
      sessions: page.rows.map(({ row }) => ({
        recording: toRecording(row),
        hits: found.hits
          .filter((h) => h.recordingId === row.id)
          .map((h) => ({ t: h.t, kind: h.kind, ...snippet(h.text, query.q) })),
        hit_count: found.counts.get(row.id) ?? 0,
        truncated: found.truncated.has(row.id),
      })),
      next_cursor: page.more && last ? encodeCursor(last.key, last.row.id) : null,
    };
  }
}

import { RECORDING_SEARCH_MIN, type RecordingTextKind, type ResponseOf, type Routes } from '@gatehouse/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { RouteRef } from '../../../lib/api-routes';

/** The call this feature makes, checked against the contract like lib/api-routes. */
export const SEARCH_API = {
  searchRecordings: { name: 'searchRecordings', method: 'GET', path: '/api/recording/search' },
} as const satisfies { searchRecordings: RouteRef<'searchRecordings'> };

/** One page of sessions with hits. */
export type SearchPage = ResponseOf<Routes['searchRecordings']>;
/** One session with its hits. */
export type SearchSession = SearchPage['sessions'][number];
/** One hit. */
export type SearchHit = SearchSession['hits'][number];

/** How far back to search (days), or any time. */
export type SearchRange = 'any' | '1' | '7' | '30';

/** What is searched: the text, the kinds of text (none: all) and the time range. */
export interface SearchParams {
  q: string;
  kinds: RecordingTextKind[];
  range: SearchRange;
}

/** Shortest text the server searches for (three: every search then has a trigram to use). */
export const MIN_QUERY = RECORDING_SEARCH_MIN;

/** The query values of one page. */
export function searchQuery(params: SearchParams, cursor: string | undefined, now: number) {
  return {
    q: params.q,
    kind: params.kinds.length ? params.kinds.join(',') : undefined,
    since: params.range === 'any' ? undefined : new Date(now - Number(params.range) * 86_400_000).toISOString(),
    limit: '20',
    cursor,
  };
}

/** Sessions whose recordings contain the text, page after page (idle while the text is too short). */
export function useRecordingSearch(params: SearchParams) {
  return useInfiniteQuery({
    queryKey: ['recording-search', params] as const,
    queryFn: ({ pageParam, signal }) =>
      apiCall(SEARCH_API.searchRecordings, { query: searchQuery(params, pageParam, Date.now()), signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: params.q.trim().length >= MIN_QUERY,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

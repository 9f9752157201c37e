import type { RECORDING_SORTS, ResponseOf, Routes } from '@gatehouse/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import type { KindFilter, SessionKind } from '../derive';
import type { TimeFilter } from '../time-filter';
import { timeWindow } from '../time-filter';
import { REFRESH_MS, SESSION_KEYS } from './session-keys';

/** One page of sessions as the server answers it. */
export type SessionPage = ResponseOf<Routes['listRecordings']>;

/** Columns the server sorts sessions by. */
export type SessionSort = (typeof RECORDING_SORTS)[number];

/** The live filter: any session, only live ones or only finished ones. */
export type LiveFilter = 'any' | 'live' | 'finished';

/** The legal-hold filter: any session, only those on hold or only those not on hold. */
export type HoldFilter = 'any' | 'held' | 'not-held';

/** The filters of the session list (spec §3 client state: time, session type, live, tunnel; plus text). */
export interface SessionFilters {
  time: TimeFilter;
  type: SessionKind | 'any';
  /** What the SSH session's first channel was (shell, exec, sftp, scp, forward), a browser desktop, or 'any'. */
  kind: KindFilter | 'any';
  live: LiveFilter;
  hold: HoldFilter;
  /** A tunnel definition's name, or 'all' (the default). */
  tunnel: string;
  /** Text in the hostname, user or tunnel name, searched by the server. */
  q: string;
}

/** Filters as a new visitor gets them. */
export const DEFAULT_FILTERS: SessionFilters = {
  time: '-1',
  type: 'any',
  kind: 'any',
  live: 'any',
  hold: 'any',
  tunnel: 'all',
  q: '',
};

/** One page of the list: the filters, the order and the keyset cursor of the page. */
export interface SessionListParams extends SessionFilters {
  pageSize: number;
  sort: SessionSort;
  order: 'asc' | 'desc';
  /** next_cursor of the page before; undefined for the first page. */
  cursor: string | undefined;
}

/**
 * The query values of GET api/recording for one page at time `now`. LongRunning asks for live
 * sessions of at least 24 hours whatever the live filter says (spec §4: only it sets only-live).
 */
export function listQuery(params: SessionListParams, now: Date): Record<string, string | undefined> {
  const window = timeWindow(params.time, now);
  const q = params.q.trim();
  const live = window.live ? 'true' : params.live === 'any' ? undefined : String(params.live === 'live');
  return {
    start: window.start,
    end: window.end,
    limit: String(params.pageSize),
    cursor: params.cursor,
    sort: params.sort,
    order: params.order,
    type: params.type === 'any' ? undefined : params.type,
    kind: params.kind === 'any' ? undefined : params.kind,
    live,
    hold: params.hold === 'any' ? undefined : String(params.hold === 'held'),
    min_duration: window.minDuration === undefined ? undefined : String(window.minDuration),
    tunnel: params.tunnel === 'all' || params.tunnel === '' ? undefined : params.tunnel,
    q: q === '' ? undefined : q,
  };
}

/**
 * GET api/recording for one page; the window ends at the time of each fetch, so a refresh sees new
 * sessions. The previous page stays on screen while the next loads. `refresh` false pauses the
 * 120-second refresh (while a dialog is open).
 */
export function useSessionList(params: SessionListParams, refresh: boolean) {
  return useQuery({
    ...sessionListQuery(params),
    placeholderData: keepPreviousData,
    refetchInterval: refresh ? REFRESH_MS : false,
  });
}

/**
 * The query of one page: its key and fetcher, shared by the screen and the preload that fetches
 * the first page while the screen's code loads (features/sessions/preload.ts). A page fetched in
 * the last few seconds is shown as it is, not fetched again when the screen mounts.
 */
export function sessionListQuery(params: SessionListParams) {
  return queryOptions({
    queryKey: [...SESSION_KEYS.list, params],
    queryFn: ({ signal }) => apiCall(API.listRecordings, { query: listQuery(params, new Date()), signal }),
    staleTime: LIST_FRESH_MS,
  });
}

/** How long a fetched page counts as fresh (the preloaded first page is not fetched twice). */
const LIST_FRESH_MS = 5_000;

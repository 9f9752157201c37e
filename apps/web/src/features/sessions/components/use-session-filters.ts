import { useUrlFilters } from '../../../components/use-url-filters';
import type { HoldFilter, LiveFilter, SessionFilters, SessionSort } from '../api/list-sessions';
import { DEFAULT_FILTERS } from '../api/list-sessions';
import { KIND_FILTERS, type SessionKind } from '../derive';
import { parseTimeFilter } from '../time-filter';

const KINDS: readonly SessionKind[] = ['ssh', 'rdp', 'generic', 'agent'];
const LIVE: readonly LiveFilter[] = ['any', 'live', 'finished'];
const HOLD: readonly HoldFilter[] = ['any', 'held', 'not-held'];
const SORTS: readonly SessionSort[] = ['started_on', 'ended_on', 'hostname', 'user', 'type', 'kind'];

/** The list's order: a sort column and its direction. */
export interface SessionOrder {
  sort: SessionSort;
  order: 'asc' | 'desc';
}

/** Reads the filters and order from the URL's query; unknown values fall back to the defaults. */
export function readFilters(params: URLSearchParams): SessionFilters & SessionOrder {
  const type = params.get('type');
  const kind = params.get('kind');
  const live = params.get('live');
  const hold = params.get('hold');
  const sort = params.get('sort');
  return {
    time: parseTimeFilter(params.get('time')),
    type: KINDS.find((value) => value === type) ?? 'any',
    kind: KIND_FILTERS.find((value) => value === kind) ?? 'any',
    live: LIVE.find((value) => value === live) ?? 'any',
    hold: HOLD.find((value) => value === hold) ?? 'any',
    tunnel: params.get('tunnel') || 'all',
    q: params.get('q') ?? '',
    sort: SORTS.find((value) => value === sort) ?? 'started_on',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

const DEFAULTS: SessionFilters & SessionOrder = { ...DEFAULT_FILTERS, sort: 'started_on', order: 'desc' };

/**
 * The filters live in the URL (#/recordings?time=PastWeek&live=live), so a filtered list can be
 * shared, bookmarked and left with Back. Defaults are left out of the URL.
 */
export function useSessionFilters() {
  const { filters, change, clear } = useUrlFilters(readFilters, DEFAULTS);
  const filtered =
    filters.time !== DEFAULTS.time ||
    filters.type !== DEFAULTS.type ||
    filters.kind !== DEFAULTS.kind ||
    filters.live !== DEFAULTS.live ||
    filters.hold !== DEFAULTS.hold ||
    filters.tunnel !== DEFAULTS.tunnel ||
    filters.q !== '';
  return { filters, change, clear, filtered };
}

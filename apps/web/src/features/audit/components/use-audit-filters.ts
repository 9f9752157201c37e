import { useUrlFilters } from '../../../components/use-url-filters';
import { type AuditScreenFilters, NO_FILTERS } from '../api/list-audit';

const OUTCOMES = ['success', 'failure', 'denied'] as const;
const KEYS = Object.keys(NO_FILTERS) as (keyof AuditScreenFilters)[];

/** Reads the filters from the URL's query; unknown values fall back to any. */
export function readAuditFilters(params: URLSearchParams): AuditScreenFilters {
  const outcome = params.get('outcome');
  return {
    q: params.get('q') ?? '',
    actor: params.get('actor') ?? '',
    action: params.get('action') ?? '',
    outcome: OUTCOMES.find((value) => value === outcome) ?? '',
    target: params.get('target') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

/**
 * The filters live in the URL (#/audit?outcome=denied&actor=alice), so a filtered trail can be
 * shared and left with Back; defaults are left out.
 */
export function useAuditFilters() {
  const { filters, change, clear } = useUrlFilters(readAuditFilters, NO_FILTERS);
  const filtered = KEYS.some((key) => key !== 'order' && filters[key] !== NO_FILTERS[key]);
  return { filters, change, clear, filtered };
}

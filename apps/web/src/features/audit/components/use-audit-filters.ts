import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
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
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readAuditFilters(params), [params]);
  // react-router's setParams(fn) hands fn the query of the last render, not of the last call: two
  // changes before a render (typed text settling as a menu choice is made) would lose the first.
  // The query written last is kept here until the next render brings it.
  const written = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    written.current = null;
  }, [params]);
  const change = useCallback(
    (patch: Partial<AuditScreenFilters>) => {
      const next = new URLSearchParams(written.current ?? params);
      for (const [key, value] of Object.entries(patch) as [keyof AuditScreenFilters, string][]) {
        if (value === NO_FILTERS[key] || value === '') next.delete(key);
        else next.set(key, value);
      }
      written.current = next;
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  const filtered = KEYS.some((key) => key !== 'order' && filters[key] !== NO_FILTERS[key]);
  return { filters, change, clear, filtered };
}

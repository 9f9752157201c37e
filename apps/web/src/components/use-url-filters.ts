import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Filters kept in the URL's query (#/audit?outcome=denied, #/recordings?live=live), so a filtered
 * screen can be shared, bookmarked and left with Back; a value equal to its default (or empty) is
 * left out. `read` turns the query into the filters, falling back to the defaults for unknown values.
 */
export function useUrlFilters<F extends Record<keyof F, string>>(read: (params: URLSearchParams) => F, defaults: F) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => read(params), [read, params]);
  // react-router's setParams(fn) hands fn the query of the last render, not of the last call: two
  // changes before a render (typed text settling as a menu choice is made) would lose the first.
  // The query written last is kept here until the next render brings it.
  const written = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    written.current = null;
  }, [params]);
  const change = useCallback(
    (patch: Partial<F>) => {
      const next = new URLSearchParams(written.current ?? params);
      for (const [key, value] of Object.entries(patch) as [keyof F & string, string | undefined][]) {
        if (value === defaults[key] || value === '' || value === undefined) next.delete(key);
        else next.set(key, value);
      }
      written.current = next;
      setParams(next, { replace: true });
    },
    [params, setParams, defaults],
  );
  const clear = useCallback(() => {
    written.current = new URLSearchParams();
    setParams(new URLSearchParams(), { replace: true });
  }, [setParams]);
  return { filters, change, clear };
}

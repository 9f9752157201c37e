import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handler of search across recordings. */
export function recordingSearchHandlers(s: Services): Pick<Handlers, 'searchRecordings'> {
  return {
    searchRecordings: ({ principal, query }) => s.recordingSearch.search(principal, query),
  };
}

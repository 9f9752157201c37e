import { API } from '../../lib/api-routes';
import { buildUrl } from '../../lib/api-client';
import type { RoutePreloadContext } from '../../lib/feature';
import { pageLoader } from '../../lib/lazy-page';
import { isListedForSingleUse, savedLimitSettings } from '../../lib/reauth';
import { sessionListQuery } from './api/list-sessions';
import { PAGE_SIZES } from './components/use-cursor-paging';
import { readFilters } from './components/use-session-filters';

/** The sessions screen's chunk (with the data grid); the route's lazy component loads the same module. */
export const loadSessionsPage = pageLoader(() => import('./components/sessions-page'));

/**
 * Opening the console on the session list: the screen's chunk and the first page of the list (with
 * the URL's filters, as the screen will ask for it) are fetched at once, side by side, while the
 * console's own code still runs; the screen then finds both ready (issue 19: the first row was
 * waiting for the layout, then the chunk, then the call, one after the other). A call that needs
 * a one-shot authorization is left to the screen, which can show the Authorize dialog.
 */
export function preloadSessions({ client, search }: RoutePreloadContext): Promise<unknown> {
  const chunk = loadSessionsPage();
  if (!isListedForSingleUse(savedLimitSettings(), 'GET', `/${buildUrl(API.listRecordings.path)}`)) {
    const { sort, order, ...filters } = readFilters(search);
    const params = { ...filters, sort, order, pageSize: PAGE_SIZES[0] ?? 25, cursor: undefined };
    void client.prefetchQuery(sessionListQuery(params));
  }
  return chunk;
}

import { createElement, lazy, useState } from 'react';
import type { ComponentType } from 'react';

/** Set while the page reloads because a screen's chunk failed to load; one retry, never a loop. */
const RELOAD_MARK = 'gatehouse.lazy-reload';

/** A screen's chunk loader shared by its route and its preloads: one request, and the module once it has come. */
export interface PageLoader<M> {
  (): Promise<M>;
  /** The module, once a load has finished; undefined before (or after a failure). */
  loaded: () => M | undefined;
}

/** Wraps a chunk's import() so that every caller shares one load and the route can see it has arrived. */
export function pageLoader<M>(importer: () => Promise<M>): PageLoader<M> {
  let pending: Promise<M> | undefined;
  let module: M | undefined;
  const load = () =>
    (pending ??= importer().then(
      (value) => (module = value),
      (error: unknown) => {
        pending = undefined; // a later visit tries again
        throw error;
      },
    ));
  return Object.assign(load, { loaded: () => module });
}

/**
 * A screen loaded on its first visit, so its code and the libraries only it uses (the data grid,
 * charts, the terminal, the video player) stay out of the console's initial bundle. The router
 * shows a progress indicator while the chunk arrives. When the chunk cannot load (a new release
 * replaced the files this page knows), the page reloads once to pick up the new ones; a second
 * failure reaches the error screen.
 *
 * A screen whose chunk a PageLoader has already brought (the console opened on it and its preload
 * ran, app/router/preload-route.ts) renders at once, in the same render as the layout: no loading
 * indicator, and no second pass held back by React's pacing of Suspense reveals (issue 19). Which
 * of the two a mounted screen uses is fixed at its mount, so it is never remounted.
 */
export function lazyPage<K extends string>(
  load: (() => Promise<Record<K, ComponentType>>) | PageLoader<Record<K, ComponentType>>,
  name: K,
): ComponentType {
  const Lazy: ComponentType = lazy<ComponentType>(async () => {
    try {
      const module = await load();
      sessionStorage.removeItem(RELOAD_MARK);
      return { default: module[name] };
    } catch (error) {
      if (sessionStorage.getItem(RELOAD_MARK)) throw error;
      sessionStorage.setItem(RELOAD_MARK, '1');
      window.location.reload();
      return new Promise<never>(() => undefined);
    }
  });
  function Page() {
    const [Ready] = useState(() => ('loaded' in load ? load.loaded()?.[name] : undefined));
    return createElement(Ready ?? Lazy);
  }
  Page.displayName = `LazyPage(${name})`;
  return Page;
}

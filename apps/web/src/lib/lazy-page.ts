import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';

/** Set while the page reloads because a screen's chunk failed to load; one retry, never a loop. */
const RELOAD_MARK = 'gatehouse.lazy-reload';

/**
 * A screen loaded on its first visit, so its code and the libraries only it uses (the data grid,
 * charts, the terminal, the video player) stay out of the console's initial bundle. The router
 * shows a progress indicator while the chunk arrives. When the chunk cannot load (a new release
 * replaced the files this page knows), the page reloads once to pick up the new ones; a second
 * failure reaches the error screen.
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): LazyExoticComponent<ComponentType> {
  return lazy(async () => {
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
}

import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';

/**
 * A screen loaded on its first visit, so its code and the libraries only it uses (the data grid,
 * charts, the terminal, the video player) stay out of the console's initial bundle. The router
 * shows a progress indicator while the chunk arrives.
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: (await load())[name] }));
}

import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { hasPermission } from '../../lib/permissions';
import { getSession } from '../../lib/session';
import { FEATURES } from '../features';

/**
 * Calls the preload of the route the console opens on (`#/recordings?time=…`), before the first
 * render, when the route has one and the stored session may open it (the route guard's rule: a
 * signed-out visitor or one without the permissions is sent elsewhere, so nothing is fetched).
 * Answers undefined when no preload ran, else a promise that settles (never rejects: the route
 * reports a chunk that fails) once the screen's code has loaded.
 */
export function preloadRoute(hash: string, client: QueryClient): Promise<void> | undefined {
  const location = hash.replace(/^#/, '') || '/';
  const at = location.indexOf('?');
  const pathname = at < 0 ? location : location.slice(0, at);
  const search = new URLSearchParams(at < 0 ? '' : location.slice(at + 1));
  const { user } = getSession();
  for (const feature of FEATURES)
    for (const route of feature.routes) {
      if (!matchPath({ path: `/${route.path}`, end: true }, pathname)) continue;
      if (!route.preload) return undefined;
      if (route.access === 'protected' && (!user || !hasPermission(user, route.permissions))) return undefined;
      return route.preload({ client, search }).then(
        () => undefined,
        () => undefined,
      );
    }
  return undefined;
}

/** Settles when promise does or after ms, whichever comes first. */
export function within(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}

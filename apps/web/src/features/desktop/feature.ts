import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

// noVNC comes with these screens only: it stays out of the console's initial bundle.
const DesktopPage = lazyPage(() => import('./components/desktop-page'), 'DesktopPage');
const WatchPage = lazyPage(() => import('./components/watch-page'), 'WatchPage');

/** The browser desktop (issue 18): an RDP tunnel's desktop through the gateway, and watching one live. */
export const desktopFeature: Feature = {
  id: 'desktop',
  routes: [
    // Whether the user may open this definition is the server's decision (policy admit); it says why not.
    { path: 'desktop/:definitionId', Component: DesktopPage, access: 'protected' },
    { path: 'desktop/watch/:recordingId', Component: WatchPage, access: 'protected', permissions: ['list-recording'] },
  ],
};

/** The route of an RDP definition's desktop. */
export function desktopPath(definitionId: string): string {
  return `/desktop/${definitionId}`;
}

/** The route that watches a live gateway desktop. */
export function watchDesktopPath(recordingId: string): string {
  return `/desktop/watch/${recordingId}`;
}

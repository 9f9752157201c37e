import type { Feature } from '../../lib/feature';
import { ComingSoonPage, Error404Page, Error500Page, MaintenancePage } from './components/error-pages';

/** The error and status pages (spec §2.1); open to everyone. */
export const errorPagesFeature: Feature = {
  id: 'error-pages',
  routes: [
    { path: 'error-pages/error-404', Component: Error404Page, access: 'public' },
    { path: 'error-pages/error-500', Component: Error500Page, access: 'public' },
    { path: 'error-pages/coming-soon', Component: ComingSoonPage, access: 'public' },
    { path: 'error-pages/maintenance', Component: MaintenancePage, access: 'public' },
  ],
};

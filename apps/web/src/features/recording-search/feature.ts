import { lazyPage } from '../../lib/lazy-page';
import type { Feature } from '../../lib/feature';

const RecordingSearchPage = lazyPage(() => import('./components/recording-search-page'), 'RecordingSearchPage');

/**
 * Search across recordings (issue 16): which sessions printed, ran, typed or transferred a text.
 * Reached from the Sessions screen (its Search recordings button); the Sessions entry stays current.
 */
export const recordingSearchFeature: Feature = {
  id: 'recording-search',
  routes: [
    { path: 'recordings/search', Component: RecordingSearchPage, access: 'protected', permissions: ['list-recording'] },
  ],
};

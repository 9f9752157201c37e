import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import { lazy } from 'react';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';
import { loadSessionsPage, preloadSessions } from './preload';

const SessionsPage = lazyPage(loadSessionsPage, 'SessionsPage');
/** The live view and replay (features/player): loaded on first use, so xterm and video code stay out of the initial bundle. */
const PlayerPage = lazy(() => import('../player/player-page'));

/** Sessions (spec §2.2): recorded and live sessions, their detail, termination and the player. */
export const sessionsFeature: Feature = {
  id: 'sessions',
  routes: [
    {
      path: 'recordings',
      Component: SessionsPage,
      access: 'protected',
      permissions: ['list-recording'],
      preload: preloadSessions,
    },
    {
      path: 'recordings/sessions',
      Component: SessionsPage,
      access: 'protected',
      permissions: ['list-recording'],
      preload: preloadSessions,
    },
    {
      path: 'sessions',
      Component: SessionsPage,
      access: 'protected',
      permissions: ['list-recording'],
      preload: preloadSessions,
    },
    // The router shows its loading indicator (Suspense) while the player's chunk arrives.
    { path: 'recordings/:id', Component: PlayerPage, access: 'protected', permissions: ['list-recording'] },
  ],
  nav: {
    id: 'sessions',
    messageId: 'nav.sessions',
    path: '/recordings',
    icon: PlayCircleOutlined,
    permissions: ['list-recording'],
    counts: ['totalSessions', 'liveSessions'],
    alsoActiveOn: ['/recordings/sessions', '/sessions', '/recordings/search'],
  },
};

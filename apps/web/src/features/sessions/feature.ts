import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const SessionsPage = lazyPage(() => import('./components/sessions-page'), 'SessionsPage');

/** Sessions (spec §2.2): recorded and live sessions, their detail, termination and the player. */
export const sessionsFeature: Feature = {
  id: 'sessions',
  routes: [
    { path: 'recordings', Component: SessionsPage, access: 'protected', permissions: ['list-recording'] },
    { path: 'recordings/sessions', Component: SessionsPage, access: 'protected', permissions: ['list-recording'] },
    { path: 'sessions', Component: SessionsPage, access: 'protected', permissions: ['list-recording'] },
  ],
  nav: {
    id: 'sessions',
    messageId: 'nav.sessions',
    path: '/recordings',
    icon: PlayCircleOutlined,
    permissions: ['list-recording'],
    counts: ['totalSessions', 'liveSessions'],
    alsoActiveOn: ['/recordings/sessions', '/sessions'],
  },
};

import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import { getDashboard } from '@gatehouse/contracts';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const DashboardPage = lazyPage(() => import('./components/dashboard-page'), 'DashboardPage');

/**
 * Dashboard (spec §2.2): the route needs what its one call (GET /api/agent/dashboard) needs, so a
 * user without either lands on My access instead of an error (issue 20); the navigation entry
 * needs list-host.
 */
export const dashboardFeature: Feature = {
  id: 'dashboard',
  routes: [
    {
      path: 'hostsDashboard',
      Component: DashboardPage,
      access: 'protected',
      permissions: getDashboard.access.kind === 'permissions' ? getDashboard.access.anyOf : [],
    },
  ],
  nav: {
    id: 'dashboard',
    messageId: 'nav.dashboard',
    path: '/hostsDashboard',
    icon: DashboardOutlined,
    permissions: ['list-host'],
    counts: ['totalHosts'],
  },
};

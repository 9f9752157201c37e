import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import type { Permission } from '@gatehouse/contracts';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const DashboardPage = lazyPage(() => import('./components/dashboard-page'), 'DashboardPage');

/**
 * What GET /api/agent/dashboard needs (its contract's anyOf; written out, since importing the
 * contract's value would bring zod, which probes eval, into the console's first chunks).
 */
const DASHBOARD_PERMISSIONS: readonly Permission[] = ['list-host', 'list-recording'];

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
      permissions: DASHBOARD_PERMISSIONS,
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

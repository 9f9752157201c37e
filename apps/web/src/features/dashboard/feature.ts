import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const DashboardPage = lazyPage(() => import('./components/dashboard-page'), 'DashboardPage');

/** Dashboard (spec §2.2): no permission on the route; its navigation entry needs list-host. */
export const dashboardFeature: Feature = {
  id: 'dashboard',
  routes: [{ path: 'hostsDashboard', Component: DashboardPage, access: 'protected' }],
  nav: {
    id: 'dashboard',
    messageId: 'nav.dashboard',
    path: '/hostsDashboard',
    icon: DashboardOutlined,
    permissions: ['list-host'],
    counts: ['totalHosts'],
  },
};

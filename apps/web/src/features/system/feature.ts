import MonitorHeartOutlined from '@mui/icons-material/MonitorHeartOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const SystemStatusPage = lazyPage(() => import('./components/system-status-page'), 'SystemStatusPage');

/** System status (spec §2.2, §2.3): health of system components. */
export const systemFeature: Feature = {
  id: 'system',
  routes: [
    { path: 'systemStatus', Component: SystemStatusPage, access: 'protected', permissions: ['manage-kubernetes'] },
  ],
  nav: {
    id: 'status',
    messageId: 'nav.status',
    path: '/systemStatus',
    icon: MonitorHeartOutlined,
    permissions: ['manage-kubernetes'],
    counts: ['systemStatusHealthSummary', 'totalUnhealthyPods'],
  },
};

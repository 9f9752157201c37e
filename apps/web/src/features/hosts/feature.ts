import DnsOutlined from '@mui/icons-material/DnsOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const HostsPage = lazyPage(() => import('./components/hosts-page'), 'HostsPage');

/** Agents (hosts) (spec §2.2). */
export const hostsFeature: Feature = {
  id: 'hosts',
  routes: [{ path: 'hosts', Component: HostsPage, access: 'protected', permissions: ['list-host'] }],
  nav: {
    id: 'agents',
    messageId: 'nav.agents',
    path: '/hosts',
    icon: DnsOutlined,
    permissions: ['list-host'],
    counts: ['totalHosts', 'connectedHosts'],
  },
};

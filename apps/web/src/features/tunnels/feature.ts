import SettingsEthernetOutlined from '@mui/icons-material/SettingsEthernetOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const TunnelsPage = lazyPage(() => import('./components/tunnels-page'), 'TunnelsPage');

/** Tunnels (spec §2.2): ssh, rdp, generic and agent tunnel definitions. */
export const tunnelsFeature: Feature = {
  id: 'tunnels',
  routes: [
    { path: 'tunnels', Component: TunnelsPage, access: 'protected', permissions: ['list-all-tunnel-definitions'] },
  ],
  nav: {
    id: 'tunnels',
    messageId: 'nav.tunnels',
    path: '/tunnels',
    icon: SettingsEthernetOutlined,
    permissions: ['list-all-tunnel-definitions'],
    counts: ['totalTunnels'],
  },
};

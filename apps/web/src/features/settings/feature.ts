import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const SettingsPage = lazyPage(() => import('./components/settings-page'), 'SettingsPage');

/**
 * Settings (spec §2.2): licence, ingress certificate, general and security settings (manage-settings),
 * the mail outbox (admin role), single sign-on configuration and versions. The licence and certificate notices run app-wide
 * (components/expiry-notices.tsx, mounted by the app).
 */
export const settingsFeature: Feature = {
  id: 'settings',
  routes: [
    {
      path: 'settings',
      Component: SettingsPage,
      access: 'protected',
      permissions: ['manage-license', 'manage-sso-config', 'manage-kubernetes'],
    },
  ],
  nav: {
    id: 'settings',
    messageId: 'nav.settings',
    path: '/settings',
    icon: SettingsOutlined,
    permissions: ['manage-sso-config', 'manage-license', 'manage-kubernetes'],
  },
};

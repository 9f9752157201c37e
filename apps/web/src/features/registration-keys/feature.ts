import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const RegistrationKeysPage = lazyPage(() => import('./components/registration-keys-page'), 'RegistrationKeysPage');

/** Registration (API) keys (spec §2.2). */
export const registrationKeysFeature: Feature = {
  id: 'registration-keys',
  routes: [
    { path: 'registrationKeys', Component: RegistrationKeysPage, access: 'protected', permissions: ['list-api-key'] },
  ],
  nav: {
    id: 'keys',
    messageId: 'nav.keys',
    path: '/registrationKeys',
    icon: VpnKeyOutlined,
    permissions: ['list-api-key'],
    counts: ['totalRegistrationKeys'],
  },
};

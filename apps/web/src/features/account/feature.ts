import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const AccountPage = lazyPage(() => import('./components/account-page'), 'AccountPage');
const MyAccessPage = lazyPage(() => import('./components/my-access/my-access-page'), 'MyAccessPage');
const EnrolPage = lazyPage(() => import('./components/enrol-page'), 'EnrolPage');

/** Where every signed-in user may go: My access needs no permission (issue 20). */
export const MY_ACCESS_PATH = '/access';

/**
 * Oneself: My access (the hosts one reaches and how to connect; in the navigation for everyone)
 * and My account (details, reach and SSH keys; opened from the user menu).
 */
export const accountFeature: Feature = {
  id: 'account',
  routes: [
    { path: 'account', Component: AccountPage, access: 'protected' },
    { path: MY_ACCESS_PATH.slice(1), Component: MyAccessPage, access: 'protected' },
    // Two-factor sign-in; where a role's requirement leads until a factor is set up (issue 20).
    { path: 'account/two-factor', Component: EnrolPage, access: 'protected' },
  ],
  nav: {
    id: 'my-access',
    messageId: 'nav.myAccess',
    path: MY_ACCESS_PATH,
    icon: VpnKeyOutlined,
  },
};

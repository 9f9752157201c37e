import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const AccountPage = lazyPage(() => import('./components/account-page'), 'AccountPage');
const EnrolPage = lazyPage(() => import('./components/enrol-page'), 'EnrolPage');

/** My account: one's own details, reach and SSH keys; opened from the user menu, not the navigation. */
export const accountFeature: Feature = {
  id: 'account',
  routes: [
    { path: 'account', Component: AccountPage, access: 'protected' },
    // Two-factor sign-in; where a role's requirement leads until a factor is set up (issue 20).
    { path: 'account/two-factor', Component: EnrolPage, access: 'protected' },
  ],
};

import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const AccountPage = lazyPage(() => import('./components/account-page'), 'AccountPage');

/** My account: one's own details, reach and SSH keys; opened from the user menu, not the navigation. */
export const accountFeature: Feature = {
  id: 'account',
  routes: [{ path: 'account', Component: AccountPage, access: 'protected' }],
};

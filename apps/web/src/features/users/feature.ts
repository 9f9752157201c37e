import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const UsersPage = lazyPage(() => import('./components/users-page'), 'UsersPage');

/** Users (spec §2.2): no permission needed, always shown. */
export const usersFeature: Feature = {
  id: 'users',
  routes: [{ path: 'users', Component: UsersPage, access: 'protected' }],
  nav: {
    id: 'users',
    messageId: 'nav.users',
    path: '/users',
    icon: PeopleOutlined,
    counts: ['totalUsers'],
  },
};

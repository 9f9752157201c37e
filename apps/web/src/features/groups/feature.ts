import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const GroupsPage = lazyPage(() => import('./components/groups-page'), 'GroupsPage');

/** Groups (spec §2.2): security groups of users, agents and groups. */
export const groupsFeature: Feature = {
  id: 'groups',
  routes: [{ path: 'groups', Component: GroupsPage, access: 'protected', permissions: ['list-group'] }],
  nav: {
    id: 'groups',
    messageId: 'nav.groups',
    path: '/groups',
    icon: GroupsOutlined,
    permissions: ['list-group'],
    counts: ['totalGroups'],
  },
};

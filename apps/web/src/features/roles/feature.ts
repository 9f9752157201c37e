import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const RolesPage = lazyPage(() => import('./components/roles-page'), 'RolesPage');

/** Roles (spec §2.2): named sets of permissions. */
export const rolesFeature: Feature = {
  id: 'roles',
  routes: [{ path: 'roles', Component: RolesPage, access: 'protected', permissions: ['list-user-role'] }],
  nav: {
    id: 'roles',
    messageId: 'nav.roles',
    path: '/roles',
    icon: AdminPanelSettingsOutlined,
    permissions: ['list-user-role'],
    counts: ['totalRoles'],
  },
};

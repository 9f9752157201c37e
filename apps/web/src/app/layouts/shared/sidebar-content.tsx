import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import { useTranslation } from 'react-i18next';
import { SecuritySummary } from '../../../features/auth/components/security-summary';
import { BuildInfo } from '../../../features/system/components/build-info';
import { MainNavigation } from './main-navigation';
import { SidebarUserInfo } from './sidebar-user-info';
import { UserMenu } from './user-menu';

/** What a sidebar shows at its top: the info box, the user menu's button, or nothing. */
export type SidebarUser = 'info' | 'menu' | 'none';

/** The header-user sidebar's security configuration and metadata blocks (spec §2.5). */
export function SidebarInfoBlocks() {
  return (
    <Box
      data-testid="sidebar-info-blocks"
      sx={{
        m: 2,
        p: 2,
        display: 'flex',
        flexDirection: 'column',
        gap: 2,
        borderRadius: '8px',
        bgcolor: 'action.hover',
        border: 1,
        borderColor: 'divider',
      }}
    >
      <SecuritySummary />
      <BuildInfo />
    </Box>
  );
}

/**
 * A sidebar's content, shared by every layout: user box, the main navigation and, for
 * header-user, the info blocks. `mini` is the collapsed icon rail.
 */
export function SidebarContent(props: { user: SidebarUser; infoBlocks?: boolean; mini?: boolean; tooltips?: boolean }) {
  const { t } = useTranslation();
  const mini = props.mini ?? false;
  return (
    <Box
      component="aside"
      aria-label={t('layout.sidebar')}
      sx={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: 'background.paper',
        color: 'text.primary',
        overflowY: 'auto',
        overflowX: 'hidden',
        borderInlineEnd: 1,
        borderColor: 'divider',
      }}
    >
      {props.user === 'info' && !mini ? <SidebarUserInfo /> : null}
      {props.user === 'menu' ? (
        <Box sx={{ px: mini ? 0.5 : 1, pt: 1 }}>
          <UserMenu trigger={mini ? 'sidebar-compact' : 'sidebar'} />
        </Box>
      ) : null}
      {props.user !== 'none' ? <Divider /> : null}
      <MainNavigation mini={mini} tooltips={props.tooltips ?? false} />
      <Box sx={{ flex: 1 }} />
      {props.infoBlocks && !mini ? <SidebarInfoBlocks /> : null}
    </Box>
  );
}

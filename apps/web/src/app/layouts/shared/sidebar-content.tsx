import ExpandMore from '@mui/icons-material/ExpandMore';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SecuritySummary } from '../../../features/auth/components/security-summary';
import { BuildInfo } from '../../../features/system/components/build-info';
import { SECURITY_SETTINGS_PERMISSIONS, hasPermission } from '../../../lib/permissions';
import { STORAGE_KEYS, readString, writeString } from '../../../lib/storage';
import { useSession } from '../../../lib/use-session';
import { MainNavigation } from './main-navigation';
import { SidebarUserInfo } from './sidebar-user-info';
import { UserMenu } from './user-menu';

/** What a sidebar shows at its top: the info box, the user menu's button, or nothing. */
export type SidebarUser = 'info' | 'menu' | 'none';

/**
 * The header-user sidebar's security configuration and metadata blocks (spec §2.5), folded
 * behind one button so the navigation keeps the sidebar's height (at 900 px an administrator's
 * twelve entries leave no room for both blocks open); the choice is remembered in this browser.
 * The security block shows only to those who may read the security settings.
 */
export function SidebarInfoBlocks() {
  const { t } = useTranslation();
  const { user } = useSession();
  const contentId = useId();
  const [open, setOpen] = useState(() => readString(STORAGE_KEYS.sidebarInfoOpen) === 'true');
  const security = hasPermission(user, SECURITY_SETTINGS_PERMISSIONS);
  const toggle = () => {
    writeString(STORAGE_KEYS.sidebarInfoOpen, String(!open));
    setOpen(!open);
  };
  return (
    <Box
      data-testid="sidebar-info-blocks"
      sx={{ m: 2, mt: 1, borderRadius: '8px', bgcolor: 'action.hover', border: 1, borderColor: 'divider' }}
    >
      <ButtonBase
        onClick={toggle}
        aria-expanded={open}
        aria-controls={contentId}
        sx={{
          width: '100%',
          px: 2,
          py: 1,
          gap: 1,
          justifyContent: 'space-between',
          borderRadius: '8px',
          color: 'text.secondary',
          typography: 'overline',
          textAlign: 'start',
        }}
      >
        <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0 }}>
          {security ? <ShieldOutlined sx={{ fontSize: 16 }} aria-hidden /> : null}
          <InfoOutlined sx={{ fontSize: 16 }} aria-hidden />
          {security ? t('layout.infoBlocks.securityAndServer') : t('layout.infoBlocks.server')}
        </Box>
        <ExpandMore
          aria-hidden
          sx={{ fontSize: 18, transition: 'transform 150ms', transform: open ? 'rotate(180deg)' : 'none' }}
        />
      </ButtonBase>
      <Collapse in={open} id={contentId} unmountOnExit>
        <Box sx={{ px: 2, pb: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
          {security ? <SecuritySummary /> : null}
          <BuildInfo />
        </Box>
      </Collapse>
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

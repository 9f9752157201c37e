import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import ExpandMoreOutlined from '@mui/icons-material/ExpandMoreOutlined';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import type { MenuProps } from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { UserAvatar } from '../../../components/user-avatar';
import { ChangePasswordDialog } from '../../../features/auth/components/change-password-dialog';
import { useSession } from '../../../lib/use-session';
import { UserSummary, displayNameOf } from './sidebar-user-info';

/**
 * How the menu's button looks: `header` avatar and name (header-user and horizontal headers),
 * `sidebar` the sidebar's user info box (compact on a collapsed rail), `avatar` the avatar alone
 * (the bit-bucket icon bar).
 */
export type UserMenuTrigger = 'header' | 'sidebar' | 'sidebar-compact' | 'avatar';

const PLACEMENT: Record<UserMenuTrigger, Pick<MenuProps, 'anchorOrigin' | 'transformOrigin'>> = {
  header: {
    anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
    transformOrigin: { vertical: 'top', horizontal: 'right' },
  },
  sidebar: {
    anchorOrigin: { vertical: 'bottom', horizontal: 'left' },
    transformOrigin: { vertical: 'top', horizontal: 'left' },
  },
  'sidebar-compact': {
    anchorOrigin: { vertical: 'top', horizontal: 'right' },
    transformOrigin: { vertical: 'top', horizontal: 'left' },
  },
  avatar: {
    anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
    transformOrigin: { vertical: 'bottom', horizontal: 'left' },
  },
};

/** The user's button and menu: My account, Change Password and Logout (spec §2.5), in every layout. */
export function UserMenu({ trigger = 'header' }: { trigger?: UserMenuTrigger }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [changing, setChanging] = useState(false);
  if (!user) return null;
  const open = anchor !== null;
  const displayName = displayNameOf(user);
  const go = (path: string) => {
    setAnchor(null);
    void navigate(path);
  };

  return (
    <>
      <ButtonBase
        aria-label={t('userMenu.open')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{
          gap: 1,
          borderRadius: '8px',
          '&:hover': { bgcolor: 'action.hover' },
          ...(trigger === 'sidebar'
            ? { width: '100%', justifyContent: 'space-between', px: 2, py: 2 }
            : trigger === 'sidebar-compact'
              ? { width: '100%', justifyContent: 'center', py: 2 }
              : { px: trigger === 'avatar' ? 0.5 : 1, py: 0.5 }),
        }}
      >
        {trigger === 'sidebar' || trigger === 'sidebar-compact' ? (
          <UserSummary user={user} compact={trigger === 'sidebar-compact'} />
        ) : (
          <UserAvatar name={user.name} email={user.email} photoURL={user.photoURL} size={34} />
        )}
        {trigger === 'header' ? (
          <Typography
            component="span"
            noWrap
            // A long name or email is cut: the title holds it whole.
            title={displayName}
            sx={{ display: { xs: 'none', md: 'block' }, maxWidth: 180, fontWeight: 500, fontSize: '0.9rem' }}
          >
            {displayName}
          </Typography>
        ) : null}
        {trigger === 'header' || trigger === 'sidebar' ? (
          <ExpandMoreOutlined
            fontSize="small"
            sx={{ display: trigger === 'header' ? { xs: 'none', md: 'block' } : 'block', color: 'text.secondary' }}
            aria-hidden
          />
        ) : null}
      </ButtonBase>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        {...PLACEMENT[trigger]}
        slotProps={{ list: { 'aria-label': t('userMenu.label') }, paper: { sx: { minWidth: 240, mt: 0.5 } } }}
      >
        <Box sx={{ px: 2, py: 1.25 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap title={displayName}>
            {displayName}
          </Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap component="p" title={user.email}>
            {user.email}
          </Typography>
        </Box>
        <Divider />
        <MenuItem onClick={() => go('/account')}>
          <ListItemIcon>
            <AccountCircleOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('account.menuItem')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setChanging(true);
          }}
        >
          <ListItemIcon>
            <LockResetOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('userMenu.changePassword')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => go('/signout')}>
          <ListItemIcon>
            <LogoutOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('userMenu.logout')}</ListItemText>
        </MenuItem>
      </Menu>
      <ChangePasswordDialog open={changing} onClose={() => setChanging(false)} />
    </>
  );
}

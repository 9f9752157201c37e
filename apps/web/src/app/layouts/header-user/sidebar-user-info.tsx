import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';
import { useSession } from '../../../lib/use-session';

/** The sidebar's user info box: avatar, name and email, and role names joined by ', ' (spec §2.5). */
export function SidebarUserInfo() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  const roles = user.roles.map((role) => role.name).join(', ');
  const displayName = user.name?.trim() || user.email;
  return (
    <Box
      component="section"
      aria-label={t('user.infoLabel')}
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2.5, py: 2.5 }}
    >
      <UserAvatar name={user.name} email={user.email} photoURL={user.photoURL} size={44} />
      <Box sx={{ minWidth: 0 }}>
        <Typography noWrap sx={{ fontWeight: 600 }}>
          {displayName}
        </Typography>
        {displayName !== user.email ? (
          <Typography noWrap variant="caption" component="p" sx={{ color: 'text.secondary' }}>
            {user.email}
          </Typography>
        ) : null}
        <Typography noWrap variant="caption" component="p" sx={{ color: 'primary.light' }} title={roles}>
          {roles || t('user.noRoles')}
        </Typography>
      </Box>
    </Box>
  );
}

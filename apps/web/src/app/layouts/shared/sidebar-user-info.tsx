import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';
import type { StoredUser } from '../../../lib/session';
import { useSession } from '../../../lib/use-session';
import { EllipsisText } from '../../../components/ellipsis-text';

/** The display name: the name when set, otherwise the email (spec §2.5). */
export function displayNameOf(user: Pick<StoredUser, 'name' | 'email'>): string {
  return user.name?.trim() || user.email;
}

/**
 * Avatar, name, email and role names joined by ', ' (spec §2.5); `compact` (a collapsed rail)
 * keeps the avatar only.
 */
export function UserSummary({ user, compact = false }: { user: StoredUser; compact?: boolean }) {
  const { t } = useTranslation();
  const roles = user.roles.map((role) => role.name).join(', ');
  const displayName = displayNameOf(user);
  return (
    <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0, textAlign: 'start' }}>
      <UserAvatar name={user.name} email={user.email} photoURL={user.photoURL} size={compact ? 36 : 44} />
      {compact ? null : (
        <Box component="span" sx={{ display: 'block', minWidth: 0 }}>
          <EllipsisText text={displayName} variant="body1" sx={{ display: 'block', fontWeight: 600 }} />
          {displayName !== user.email ? (
            <EllipsisText
              text={user.email}
              ltr
              variant="caption"
              sx={{ display: 'block', color: 'text.secondary', textAlign: 'start' }}
            />
          ) : null}
          <Typography
            noWrap
            variant="caption"
            component="span"
            title={roles}
            sx={(theme) => ({
              display: 'block',
              color: theme.palette.mode === 'dark' ? theme.palette.primary.light : theme.palette.primary.dark,
            })}
          >
            {roles || t('user.noRoles')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

/** The sidebar's user info box (header-user layout, whose header holds the user menu). */
export function SidebarUserInfo() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <Box component="section" aria-label={t('user.infoLabel')} sx={{ px: 2.5, py: 2.5 }}>
      <UserSummary user={user} />
    </Box>
  );
}

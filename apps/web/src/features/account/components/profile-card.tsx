import PersonOutlined from '@mui/icons-material/PersonOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { EmailText } from '../../../components/email-text';
import { UserAvatar } from '../../../components/user-avatar';
import { useAccountMe } from '../api/me';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';

/** The signed-in user's email, name and roles (GET api/user/me). */
export function ProfileCard() {
  const { t } = useTranslation();
  const me = useAccountMe();
  const user = me.data?.user;
  return (
    <SectionCard icon={PersonOutlined} title={t('account.profile.title')}>
      {me.isError ? <LoadFailed error={me.error} onRetry={() => void me.refetch()} /> : null}
      {me.isPending ? <Skeleton variant="rounded" height={120} /> : null}
      {user ? (
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
          <UserAvatar name={user.name} email={user.email} size={56} />
          <Box component="dl" sx={{ m: 0, flex: 1, minWidth: 0, display: 'grid', gap: 1.5 }}>
            <Box>
              <Typography component="dt" variant="caption" sx={{ color: 'text.secondary' }}>
                {t('account.profile.email')}
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
                <EmailText>{user.email}</EmailText>
              </Typography>
            </Box>
            <Box>
              <Typography component="dt" variant="caption" sx={{ color: 'text.secondary' }}>
                {t('account.profile.name')}
              </Typography>
              <Typography component="dd" sx={{ m: 0, color: user.name ? 'text.primary' : 'text.secondary' }}>
                {user.name || t('account.profile.noName')}
              </Typography>
            </Box>
            <Box>
              <Typography component="dt" variant="caption" sx={{ color: 'text.secondary' }}>
                {t('account.profile.roles')}
              </Typography>
              <Box component="dd" sx={{ m: 0, mt: 0.5, display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
                {user.roles.length === 0 ? (
                  <Typography sx={{ color: 'text.secondary' }}>{t('account.profile.noRoles')}</Typography>
                ) : null}
                {user.roles.map((role) => (
                  <Tooltip
                    key={role.name}
                    title={
                      role.permissions.length > 0
                        ? t('account.profile.permissions', { list: role.permissions.join(', ') })
                        : t('account.profile.noPermissions')
                    }
                  >
                    <Chip label={role.name} size="small" color="primary" variant="outlined" tabIndex={0} />
                  </Tooltip>
                ))}
              </Box>
            </Box>
          </Box>
        </Box>
      ) : null}
    </SectionCard>
  );
}

import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { EllipsisText } from '../../../components/ellipsis-text';
import type { UserRow } from '../api/list-users';
import { ChipList } from './chip-list';

/** A user's second factors in a few words: app, passkeys, or none. */
export function TwoFactorCell({ totp, passkeys }: { totp: boolean; passkeys: number }) {
  const { t } = useTranslation();
  const parts = [
    ...(totp ? [t('users.twoFactor.app')] : []),
    ...(passkeys > 0 ? [t('users.twoFactor.passkeys', { count: passkeys })] : []),
  ];
  if (parts.length === 0)
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {t('users.twoFactor.none')}
      </Box>
    );
  return (
    <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {parts.map((p) => (
        <Chip key={p} label={p} size="small" color="success" variant="outlined" />
      ))}
    </Box>
  );
}

/** The email (read left to right, whole in its title) with "You" on one's own row. */
export function EmailCell({ email, me }: { email: string; me: boolean }) {
  const { t } = useTranslation();
  return (
    <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <EllipsisText text={email} ltr />
      {me ? <Chip label={t('users.you')} size="small" color="primary" /> : null}
    </Box>
  );
}

/**
 * A phone's (or a narrow window's) one column: email, name, the role and group chips, then the second
 * factors, stacked,
 * beside the actions; as the sessions list's summary does, so the grid never scrolls sideways.
 */
export function UserSummary({ row, me }: { row: UserRow; me: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, minWidth: 0, width: '100%', py: 0.5 }}>
      <Box component="span" sx={{ fontWeight: 600, minWidth: 0 }}>
        <EmailCell email={row.email} me={me} />
      </Box>
      {row.name ? <EllipsisText text={row.name} sx={{ color: 'text.secondary', fontSize: '0.8rem' }} /> : null}
      <ChipList names={row.roles} emptyLabel={t('users.none')} color="primary" label={t('users.columns.roles')} />
      {row.groups.length > 0 ? <ChipList names={row.groups} emptyLabel="" label={t('users.columns.groups')} /> : null}
      <Box
        component="span"
        aria-label={t('users.columns.twoFactor')}
        sx={{ display: 'flex', alignItems: 'center', gap: 1, fontSize: '0.8rem', color: 'text.secondary' }}
      >
        {t('users.columns.twoFactor')}
        <TwoFactorCell totp={row.two_factor.totp} passkeys={row.two_factor.passkeys} />
      </Box>
    </Box>
  );
}

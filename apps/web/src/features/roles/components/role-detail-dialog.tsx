import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/data-table/table-states';
import { useRole } from '../api/get-role';
import { RoleHolders } from './role-holders';
import { RolePermissionsEditor } from './role-permissions-editor';
import { RoleTwoFactorSwitch } from './role-two-factor-switch';

/** What the signed-in user may change on a role. */
export interface RoleRights {
  /** modify-role: add and remove permissions. */
  canModify: boolean;
  /** modify-user-role: give the role to users and take it away. */
  canAssign: boolean;
}

/** One role: its permissions and holders, each editable for those allowed. */
export function RoleDetailDialog({
  name,
  rights,
  onClose,
}: {
  name: string | null;
  rights: RoleRights;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const role = useRole(name);
  const detail = role.data?.role;

  return (
    <Dialog open={name !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg">
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        {t('roles.detail.title', { name: name ?? '' })}
        {detail?.builtin ? <Chip size="small" color="info" variant="outlined" label={t('roles.builtin')} /> : null}
      </DialogTitle>
      <DialogContent dividers>
        {role.isError ? <ErrorState error={role.error} onRetry={() => void role.refetch()} /> : null}
        {role.isLoading ? (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
            <CircularProgress aria-label={t('common.loading')} />
          </Box>
        ) : null}
        {detail ? (
          <Box sx={{ display: 'grid', gap: { xs: 3, md: 4 }, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            <section aria-labelledby={`${titleId}-permissions`}>
              <Typography id={`${titleId}-permissions`} variant="h4" component="h3" sx={{ mb: 1.5 }}>
                {t('roles.detail.permissions')}
              </Typography>
              <RoleTwoFactorSwitch role={detail} canModify={rights.canModify} />
              <RolePermissionsEditor role={detail} canModify={rights.canModify} />
            </section>
            <section aria-labelledby={`${titleId}-holders`}>
              <Typography id={`${titleId}-holders`} variant="h4" component="h3" sx={{ mb: 1.5 }}>
                {t('roles.detail.holders', { total: detail.users.length })}
              </Typography>
              <RoleHolders role={detail} canAssign={rights.canAssign} />
            </section>
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

import CloseOutlined from '@mui/icons-material/CloseOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { useRemoveUserRole } from '../api/remove-user-role';
import { useUserRoles } from '../api/user-roles';
import { AddRoleForm } from './add-role-form';

/** The roles of one user, each with a remove button, and a way to give another (spec §6). */
export function ManageRolesDialog(props: { email: string | null; canPickRoles: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const email = props.email ?? '';
  const roles = useUserRoles(email, props.email !== null);
  const remove = useRemoveUserRole(email);
  const held = roles.data?.roles ?? [];
  const fallback = t('message.somethingWentWrong');

  const permissionsText = (permissions: readonly string[]) =>
    permissions.length > 0
      ? t('users.roles.permissions', { list: permissions.join(', ') })
      : t('users.roles.noPermissions');
  const removeRole = (role: string) =>
    remove.mutate(role, {
      onSuccess: () => snackbar.success(t('users.roles.removed', { role })),
      onError: (error) => snackbar.error(errorText(error, fallback)),
    });

  return (
    <Dialog open={props.email !== null} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('users.roles.title', { email })}</DialogTitle>
      <DialogContent>
        {roles.isError ? (
          <Alert severity="error" variant="outlined">
            {t('users.roles.loadFailed', { message: errorText(roles.error, fallback) })}
          </Alert>
        ) : null}
        {roles.isPending && props.email !== null ? <Skeleton variant="rounded" height={96} /> : null}
        {roles.isSuccess && held.length === 0 ? (
          <Typography sx={{ color: 'text.secondary', py: 1 }}>{t('users.roles.empty')}</Typography>
        ) : null}
        <List dense aria-label={t('users.roles.listLabel')}>
          {held.map((role) => {
            const label = t('users.roles.remove', { role: role.name });
            return (
              <ListItem
                key={role.name}
                divider
                secondaryAction={
                  <Tooltip title={label}>
                    <IconButton
                      edge="end"
                      aria-label={label}
                      onClick={() => removeRole(role.name)}
                      disabled={remove.isPending}
                    >
                      <CloseOutlined />
                    </IconButton>
                  </Tooltip>
                }
              >
                <ListItemText
                  primary={role.name}
                  secondary={permissionsText(role.permissions)}
                  slotProps={{ secondary: { noWrap: true, title: permissionsText(role.permissions) } }}
                  sx={{ pe: 4 }}
                />
              </ListItem>
            );
          })}
        </List>
        <Divider sx={{ my: 2 }} />
        <AddRoleForm email={email} held={held.map((role) => role.name)} canPickRoles={props.canPickRoles} />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={props.onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

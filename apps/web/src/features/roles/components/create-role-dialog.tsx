import { isPermission } from '@gatehouse/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pathNameProblem } from '../../../components/path-name';
import { PermissionSelect } from '../../../components/permissions/permission-select';
import { usePermissionCatalogue } from '../../../components/permissions/use-permission-catalogue';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useCreateRole } from '../api/create-role';

/** Create role (needs create-role): a name and permissions chosen from the catalogue. */
export function CreateRoleDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const catalogue = usePermissionCatalogue(open);
  const mutation = useCreateRole();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const problem = pathNameProblem(name);

  const close = () => {
    setName('');
    setPermissions([]);
    setTouched(false);
    mutation.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    mutation.mutate(
      { name: name.trim(), permissions: permissions.filter(isPermission) },
      {
        onSuccess: () => {
          snackbar.success(t('roles.created'));
          close();
        },
        onError: (error) => snackbar.error(errorText(error, { 409: t('roles.errors.duplicate') })),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={mutation.isPending ? undefined : close}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('roles.createDialog.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label={t('roles.createDialog.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && problem !== null}
              helperText={
                touched && problem
                  ? t(`roles.createDialog.nameProblems.${problem}`)
                  : t('roles.createDialog.nameHelper')
              }
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 80, 'aria-required': true } }}
            />
            <PermissionSelect
              label={t('roles.createDialog.permissions')}
              options={catalogue.data?.permissions ?? []}
              loading={catalogue.isLoading}
              value={permissions}
              onChange={setPermissions}
              helperText={t('roles.grantHint')}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {t('roles.createDialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

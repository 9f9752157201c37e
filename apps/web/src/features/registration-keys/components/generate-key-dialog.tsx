import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionSelect } from '../../../components/permissions/permission-select';
import { usePermissionCatalogue } from '../../../components/permissions/use-permission-catalogue';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { GeneratedKey } from '../api/create-key';
import { useCreateKey } from '../api/create-key';

/** The longest description the server takes. */
const MAX_DESCRIPTION = 100;

/** Props of the generate dialog; `onGenerated` receives the answer with the secret, once. */
export interface GenerateKeyDialogProps {
  open: boolean;
  onClose: () => void;
  onGenerated: (key: GeneratedKey) => void;
}

/** Generate a registration key: what it is for, and optionally the permissions it carries. */
export function GenerateKeyDialog({ open, onClose, onGenerated }: GenerateKeyDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const catalogue = usePermissionCatalogue(open);
  const mutation = useCreateKey();
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const missing = description.trim() === '';

  const close = () => {
    setDescription('');
    setPermissions([]);
    setTouched(false);
    mutation.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (missing) return;
    mutation.mutate(
      { description: description.trim(), permissions },
      {
        onSuccess: (answer) => {
          snackbar.success(t('registrationKeys.created'));
          close();
          onGenerated(answer);
        },
        onError: (error) => snackbar.error(errorText(error)),
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
        <DialogTitle id={titleId}>{t('registrationKeys.generateDialog.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('registrationKeys.generateDialog.text')}</DialogContentText>
          <Stack spacing={2.5}>
            <TextField
              label={t('registrationKeys.generateDialog.description')}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && missing}
              helperText={
                touched && missing
                  ? t('registrationKeys.generateDialog.descriptionRequired')
                  : t('registrationKeys.generateDialog.descriptionHelper')
              }
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: MAX_DESCRIPTION, 'aria-required': true } }}
            />
            <PermissionSelect
              label={t('registrationKeys.generateDialog.permissions')}
              options={catalogue.data?.permissions ?? []}
              loading={catalogue.isLoading}
              value={permissions}
              onChange={setPermissions}
              helperText={t('registrationKeys.generateDialog.permissionsHelper')}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {t('registrationKeys.generateDialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

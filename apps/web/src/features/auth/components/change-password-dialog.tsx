import { MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { ApiError } from '../../../lib/api-error';
import { useChangePassword } from '../api/change-password';
import type { ChangePasswordForm } from '../validation';
import { canChangePassword, validateChangePassword } from '../validation';

const EMPTY: ChangePasswordForm = { password: '', newPassword: '', newPasswordConfirm: '' };
type Field = keyof ChangePasswordForm;

/** The server's reasons, one entry each (spec §5: shown one by one). */
function serverErrors(error: unknown, fallback: string): string[] {
  if (!(error instanceof ApiError)) return [fallback];
  const listed = error.body?.errors ?? error.body?.response?.errors ?? [];
  return listed.length > 0 ? listed : [error.body?.message || fallback];
}

/** The change-password dialog (spec §2.7); Save stays disabled until the form is valid. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const mutation = useChangePassword();
  const [form, setForm] = useState<ChangePasswordForm>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const errors = validateChangePassword(form);

  const close = () => {
    setForm(EMPTY);
    setTouched({});
    mutation.reset();
    onClose();
  };
  const fieldProps = (field: Field) => {
    const message = touched[field] || form[field] !== '' ? errors[field] : undefined;
    return {
      name: field,
      value: form[field],
      onChange: (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value }),
      onBlur: () => setTouched({ ...touched, [field]: true }),
      error: Boolean(message),
      fullWidth: true,
      // aria-required rather than `required`: the visible asterisk would change the field's label.
      slotProps: { htmlInput: { 'aria-required': true } },
      helperText: message ? t(message, { min: MIN_PASSWORD_LENGTH }) : undefined,
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canChangePassword(form)) return;
    mutation.mutate(
      { password: form.password, new_password: form.newPassword, new_password_confirm: form.newPasswordConfirm },
      {
        onSuccess: () => {
          snackbar.success(t('changePassword.success'));
          close();
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('changePassword.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {mutation.isError
              ? serverErrors(mutation.error, t('message.somethingWentWrong')).map((text) => (
                  <Alert key={text} severity="error" variant="outlined">
                    {text}
                  </Alert>
                ))
              : null}
            <PasswordField
              label={t('changePassword.newPassword')}
              autoComplete="new-password"
              autoFocus
              {...fieldProps('newPassword')}
            />
            <PasswordField
              label={t('changePassword.confirmPassword')}
              autoComplete="new-password"
              {...fieldProps('newPasswordConfirm')}
            />
            <PasswordField
              label={t('changePassword.currentPassword')}
              autoComplete="current-password"
              {...fieldProps('password')}
              helperText={fieldProps('password').helperText ?? t('changePassword.currentPasswordHelper')}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={!canChangePassword(form)} loading={mutation.isPending}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

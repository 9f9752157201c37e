import { MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';
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
import { PasswordField } from '../../../components/password-field';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { ApiError, errorText } from '../../../lib/api-error';
import { useCreateUser } from '../api/create-user';
import type { NewUserForm } from '../validation';
import { validateNewUser } from '../validation';

const EMPTY: NewUserForm = { email: '', name: '', password: '', confirm: '' };
type Field = keyof NewUserForm;

/** The add-user dialog: email, optional name, password and its confirmation (POST api/user). */
export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const create = useCreateUser();
  const [form, setForm] = useState<NewUserForm>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const errors = validateNewUser(form);
  const valid = Object.keys(errors).length === 0;

  const close = () => {
    setForm(EMPTY);
    setTouched({});
    onClose();
  };
  const field = (name: Field, helper?: string) => {
    const key = name === 'name' ? undefined : errors[name];
    const message = touched[name] ? key : undefined;
    return {
      name,
      value: form[name],
      onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
      onBlur: () => setTouched({ ...touched, [name]: true }),
      error: Boolean(message),
      helperText: message ? t(message, { min: MIN_PASSWORD_LENGTH }) : (helper ?? ' '),
      fullWidth: true,
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true, confirm: true });
    if (!valid) return;
    const email = form.email.trim();
    const name = form.name.trim();
    create.mutate(
      { email, password: form.password, ...(name ? { name } : {}) },
      {
        onSuccess: () => {
          snackbar.success(t('users.add.created', { email }));
          close();
        },
        onError: (error) =>
          snackbar.error(
            error instanceof ApiError && error.status === 409
              ? t('users.add.duplicate')
              : errorText(error, t('message.somethingWentWrong')),
          ),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={create.isPending ? undefined : close}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('users.add.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={1} sx={{ pt: 1 }}>
            <TextField
              label={t('users.add.email')}
              type="email"
              autoComplete="off"
              autoFocus
              required
              {...field('email')}
            />
            <TextField label={t('users.add.name')} autoComplete="off" {...field('name')} />
            <PasswordField
              label={t('users.add.password')}
              autoComplete="new-password"
              required
              {...field('password', t('users.add.passwordHint', { min: MIN_PASSWORD_LENGTH }))}
            />
            <PasswordField label={t('users.add.confirm')} autoComplete="new-password" required {...field('confirm')} />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={create.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={create.isPending}>
            {t('users.add.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

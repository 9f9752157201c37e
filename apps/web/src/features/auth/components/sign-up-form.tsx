import { MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field';
import { errorText } from '../../../lib/api-error';
import { useSignUp } from '../api/sign-up';
import type { SignUpForm as Form } from '../validation';
import { validateSignUp } from '../validation';

type Field = keyof Form;

/**
 * Email, name and password (POST api/users). On success the user is signed in and the route
 * guard takes them to their start page, as after a login.
 */
export function SignUpForm() {
  const { t } = useTranslation();
  const signUp = useSignUp();
  const [form, setForm] = useState<Form>({ email: '', name: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const errors = validateSignUp(form);

  const field = (name: Field, hint = ' ') => {
    const message = touched[name] ? errors[name] : undefined;
    return {
      name,
      value: form[name],
      onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
      onBlur: () => setTouched({ ...touched, [name]: touched[name] || form[name] !== '' }),
      error: Boolean(message),
      helperText: message ? t(message, { min: MIN_PASSWORD_LENGTH }) : hint,
      required: true,
      fullWidth: true,
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, name: true, password: true });
    if (Object.keys(errors).length > 0) return;
    signUp.mutate({ email: form.email.trim(), name: form.name.trim(), password: form.password });
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('authFlows.signUp.formLabel')}>
      <Stack spacing={1.5}>
        {signUp.isError ? (
          <Alert severity="error" variant="outlined">
            {errorText(signUp.error, t('message.somethingWentWrong'))}
          </Alert>
        ) : null}
        <TextField label={t('auth.signIn.email')} type="email" autoComplete="username" autoFocus {...field('email')} />
        <TextField label={t('authFlows.signUp.name')} autoComplete="name" {...field('name')} />
        <PasswordField
          label={t('auth.signIn.password')}
          autoComplete="new-password"
          {...field('password', t('authFlows.passwordHint', { min: MIN_PASSWORD_LENGTH }))}
        />
        <Button type="submit" variant="contained" size="large" fullWidth loading={signUp.isPending} sx={{ py: 1.25 }}>
          {t('authFlows.signUp.submit')}
        </Button>
      </Stack>
    </Box>
  );
}

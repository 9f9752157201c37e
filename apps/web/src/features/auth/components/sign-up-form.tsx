import { MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PasswordField } from '../../../components/password-field';
import { errorText } from '../../../lib/api-error';
import { useSignUp } from '../api/sign-up';
import type { SignUpForm as Form } from '../validation';
import { validateSignUp } from '../validation';

type Field = keyof Form;

/**
 * Email, name and password (POST api/users). On success nobody is signed in: the account stays
 * unverified until the link mailed to the address is opened, so the form gives way to a
 * "check your mail" screen.
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

  if (signUp.isSuccess) {
    return (
      <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center', py: 1 }} role="status">
        <MarkEmailReadOutlined sx={{ fontSize: 44, color: 'primary.main' }} aria-hidden />
        <Typography variant="h6" component="p">
          {t('authFlows.signUp.checkMailTitle')}
        </Typography>
        <Typography>{t('authFlows.signUp.checkMail', { email: signUp.data.email })}</Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('authFlows.signUp.checkMailHint')}
        </Typography>
        <Button component={RouterLink} to="/signin" variant="outlined">
          {t('common.backToSignIn')}
        </Button>
      </Stack>
    );
  }

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

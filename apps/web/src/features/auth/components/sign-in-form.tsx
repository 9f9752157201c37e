import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PasswordField } from '../../../components/password-field';
import { ApiError } from '../../../lib/api-error';
import type { PasswordMethod } from '../api/login';
import { useLogin } from '../api/login';
import type { PendingSignIn } from '../api/second-factor';
import { pickLoginError } from '../login-error';
import { validateSignIn } from '../validation';
import { PasskeySignInButton } from './passkey-sign-in-button';
import { SecondFactorStep } from './second-factor-step';

/**
 * Email and password sign-in, with the Gatehouse password or, for `ldap`, the directory's (spec §4:
 * the LDAP provider uses the LDAP login path). On success the session changes and the route guard
 * moves the user to the remembered page or the start page.
 */
export function SignInForm({ method = 'password' }: { method?: PasswordMethod }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  const login = useLogin(method, (waiting) => setPending({ ...waiting, via: method }));
  const directory = method === 'ldap';
  const [values, setValues] = useState({ email: '', password: '' });
  const [touched, setTouched] = useState({ email: false, password: false });
  const errors = validateSignIn(values);
  const show = (field: 'email' | 'password') => (touched[field] ? errors[field] : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (errors.email || errors.password) return;
    login.mutate({ email: values.email.trim(), password: values.password });
  };

  const failure = login.error
    ? pickLoginError(login.error instanceof ApiError ? login.error.body : null, t('message.somethingWentWrong'))
    : null;
  const emailError = show('email');
  const passwordError = show('password');

  // The password was right; the second factor follows (issue 20).
  if (pending)
    return (
      <SecondFactorStep
        pending={pending}
        onBack={() => {
          setPending(null);
          login.reset();
          setValues({ ...values, password: '' });
        }}
      />
    );

  return (
    <>
      <Box
        component="form"
        noValidate
        onSubmit={submit}
        aria-label={directory ? t('authFlows.signIn.directoryFormLabel') : t('auth.signIn.formLabel')}
      >
        <Stack spacing={2.5}>
          {failure ? (
            <Alert severity="error" variant="outlined">
              {failure}
            </Alert>
          ) : null}
          <TextField
            label={t('auth.signIn.email')}
            name="email"
            type="email"
            autoComplete="username"
            autoFocus
            required
            fullWidth
            value={values.email}
            onChange={(event) => setValues({ ...values, email: event.target.value })}
            onBlur={() => setTouched({ ...touched, email: values.email !== '' || touched.email })}
            error={Boolean(emailError)}
            helperText={emailError ? t(emailError) : ' '}
          />
          <PasswordField
            label={t('auth.signIn.password')}
            name="password"
            autoComplete="current-password"
            required
            fullWidth
            value={values.password}
            onChange={(event) => setValues({ ...values, password: event.target.value })}
            error={Boolean(passwordError)}
            helperText={passwordError ? t(passwordError) : ' '}
          />
          {/* A directory password is changed in the directory, not here. */}
          {directory ? null : (
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: -1 }}>
              <Link component={RouterLink} to="/forget-password" variant="body2" underline="hover">
                {t('auth.signIn.forgotPassword')}
              </Link>
            </Box>
          )}
          <Button type="submit" variant="contained" size="large" fullWidth loading={login.isPending} sx={{ py: 1.25 }}>
            {directory ? t('authFlows.signIn.directorySubmit') : t('auth.signIn.submit')}
          </Button>
        </Stack>
      </Box>
      {/* A passkey signs in on its own; directory accounts sign in at the directory. */}
      {directory ? null : <PasskeySignInButton />}
    </>
  );
}

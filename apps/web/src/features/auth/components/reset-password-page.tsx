import { MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { PasswordField } from '../../../components/password-field';
import { usePageTitle } from '../../../components/use-page-title';
import { errorText } from '../../../lib/api-error';
import { validateNewPassword } from '../../../lib/new-password';
import { useResetPassword } from '../api/reset-password';

/** /reset-password?token=…: sets a new password with the emailed link's token, then offers sign-in. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.resetPassword'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [submitted, setSubmitted] = useState(false);
  const errors = validateNewPassword(values.password, values.confirm);
  const show = (field: 'password' | 'confirm') => (submitted || values[field] !== '' ? errors[field] : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (errors.password || errors.confirm) return;
    reset.mutate({ token, new_password: values.password, new_password_confirm: values.confirm });
  };
  const askAgain = (
    <Button component={RouterLink} to="/forget-password" variant="outlined">
      {t('authFlows.reset.askAgain')}
    </Button>
  );

  if (token === '') {
    return (
      <AuthCard title={t('pages.resetPassword')}>
        <Stack spacing={3}>
          <Alert severity="error" variant="outlined">
            {t('authFlows.reset.noToken')}
          </Alert>
          {askAgain}
        </Stack>
      </AuthCard>
    );
  }
  if (reset.isSuccess) {
    return (
      <AuthCard title={t('pages.resetPassword')}>
        <Stack spacing={3}>
          <Alert severity="success" variant="outlined" role="status">
            {reset.data.message}
          </Alert>
          <Button component={RouterLink} to="/signin" variant="contained">
            {t('authFlows.reset.signIn')}
          </Button>
        </Stack>
      </AuthCard>
    );
  }
  const passwordError = show('password');
  const confirmError = show('confirm');
  return (
    <AuthCard title={t('pages.resetPassword')} subtitle={t('authFlows.reset.subtitle')}>
      <Box component="form" noValidate onSubmit={submit} aria-label={t('authFlows.reset.formLabel')}>
        <Stack spacing={2.5}>
          {reset.isError ? (
            <Alert severity="error" variant="outlined" action={askAgain}>
              {errorText(reset.error, t('message.somethingWentWrong'))}
            </Alert>
          ) : null}
          <PasswordField
            label={t('authFlows.reset.newPassword')}
            autoComplete="new-password"
            autoFocus
            fullWidth
            value={values.password}
            onChange={(event) => setValues({ ...values, password: event.target.value })}
            error={Boolean(passwordError)}
            helperText={t(passwordError ?? 'authFlows.passwordHint', { min: MIN_PASSWORD_LENGTH })}
          />
          <PasswordField
            label={t('authFlows.reset.confirm')}
            autoComplete="new-password"
            fullWidth
            value={values.confirm}
            onChange={(event) => setValues({ ...values, confirm: event.target.value })}
            error={Boolean(confirmError)}
            helperText={confirmError ? t(confirmError, { min: MIN_PASSWORD_LENGTH }) : ' '}
          />
          <Button type="submit" variant="contained" size="large" fullWidth loading={reset.isPending}>
            {t('authFlows.reset.submit')}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}

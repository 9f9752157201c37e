import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
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
import { AuthCard } from '../../../components/auth-card';
import { usePageTitle } from '../../../components/use-page-title';
import { errorText } from '../../../lib/api-error';
import { useForgotPassword } from '../api/forgot-password';
import { validateSignIn } from '../validation';

/** /forget-password: asks for a reset link by email and shows where to look (spec §7.1, §8). */
export function ForgetPasswordPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.forgetPassword'));
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const error = touched ? validateSignIn({ email, password: '-' }).email : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (validateSignIn({ email, password: '-' }).email) return;
    forgot.mutate(email.trim());
  };

  return (
    <AuthCard title={t('pages.forgetPassword')} subtitle={t('authFlows.forgot.subtitle')}>
      {forgot.isSuccess ? (
        <Stack spacing={3}>
          <Alert severity="success" variant="outlined" icon={<MarkEmailReadOutlined />} role="status">
            {forgot.data.message}
          </Alert>
          <Button component={RouterLink} to="/signin" variant="outlined">
            {t('common.backToSignIn')}
          </Button>
        </Stack>
      ) : (
        <Box component="form" noValidate onSubmit={submit} aria-label={t('authFlows.forgot.formLabel')}>
          <Stack spacing={2.5}>
            {forgot.isError ? (
              <Alert severity="error" variant="outlined">
                {errorText(forgot.error, t('message.somethingWentWrong'))}
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
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              onBlur={() => setTouched(email !== '' || touched)}
              error={Boolean(error)}
              helperText={error ? t(error) : ' '}
            />
            <Button type="submit" variant="contained" size="large" fullWidth loading={forgot.isPending}>
              {t('authFlows.forgot.submit')}
            </Button>
            <Link component={RouterLink} to="/signin" variant="body2" underline="hover" sx={{ alignSelf: 'center' }}>
              {t('common.backToSignIn')}
            </Link>
          </Stack>
        </Box>
      )}
    </AuthCard>
  );
}

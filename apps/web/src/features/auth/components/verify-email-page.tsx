import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { usePageTitle } from '../../../components/use-page-title';
import { errorText } from '../../../lib/api-error';
import { useVerifyEmail } from '../api/verify-email';

/**
 * /verify-email?token=…: the link mailed after sign-up. It sends the token once (the link works
 * once, so a second render must not spend it again) and then offers sign-in, or explains why not.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const title = t('authFlows.verify.title');
  usePageTitle(title);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const sent = useRef(false);
  const { mutate } = verify;

  useEffect(() => {
    if (token === '' || sent.current) return;
    sent.current = true;
    mutate({ token });
  }, [token, mutate]);

  const signIn = (
    <Button component={RouterLink} to="/signin" variant="contained">
      {t('authFlows.verify.signIn')}
    </Button>
  );
  let content;
  if (token === '') {
    content = (
      <Alert severity="error" variant="outlined">
        {t('authFlows.verify.noToken')}
      </Alert>
    );
  } else if (verify.isSuccess) {
    content = (
      <>
        <Alert severity="success" variant="outlined" role="status">
          {t('authFlows.verify.done')}
        </Alert>
        {signIn}
      </>
    );
  } else if (verify.isError) {
    content = (
      <>
        <Alert severity="error" variant="outlined">
          {errorText(verify.error, t('message.somethingWentWrong'))}
        </Alert>
        <Button component={RouterLink} to="/forget-password" variant="outlined">
          {t('authFlows.verify.forgot')}
        </Button>
      </>
    );
  } else {
    content = (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 4, justifyContent: 'center' }}>
        <CircularProgress size={22} aria-hidden />
        <Typography sx={{ color: 'text.secondary' }}>{t('authFlows.verify.checking')}</Typography>
      </Box>
    );
  }
  return (
    <AuthCard title={title} subtitle={t('authFlows.verify.subtitle')}>
      <Stack spacing={3}>{content}</Stack>
    </AuthCard>
  );
}

import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { usePageTitle } from '../../../components/use-page-title';
import { errorText } from '../../../lib/api-error';
import { usePublicSettings } from '../api/public-settings';
import { SignUpForm } from './sign-up-form';

/** /signup: the form when the general settings allow sign-up, otherwise a plain 'turned off' state. */
export function SignUpPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.signUp'));
  const settings = usePublicSettings();

  let content;
  if (settings.isPending) {
    content = (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 6, justifyContent: 'center' }}>
        <CircularProgress size={22} aria-hidden />
        <Typography sx={{ color: 'text.secondary' }}>{t('authFlows.signUp.checking')}</Typography>
      </Box>
    );
  } else if (settings.isError) {
    content = (
      <Alert
        severity="error"
        variant="outlined"
        action={
          <Button color="inherit" size="small" onClick={() => void settings.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {errorText(settings.error, t('message.somethingWentWrong'))}
      </Alert>
    );
  } else if (!settings.data.allow_signup) {
    content = (
      <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center', py: 1 }}>
        <PersonOffOutlined sx={{ fontSize: 40, color: 'text.secondary' }} aria-hidden />
        <Typography>{t('authFlows.signUp.off')}</Typography>
        <Button component={RouterLink} to="/signin" variant="outlined">
          {t('common.backToSignIn')}
        </Button>
      </Stack>
    );
  } else {
    content = (
      <>
        <SignUpForm />
        <Typography variant="body2" sx={{ mt: 3, textAlign: 'center', color: 'text.secondary' }}>
          {t('authFlows.signUp.haveAccount')}{' '}
          <Link component={RouterLink} to="/signin" underline="hover">
            {t('auth.signIn.submit')}
          </Link>
        </Typography>
      </>
    );
  }
  return (
    <AuthCard title={t('pages.signUp')} subtitle={t('authFlows.signUp.subtitle')}>
      {content}
    </AuthCard>
  );
}

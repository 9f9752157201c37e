import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../../../components/use-page-title';
import { usePublicSettings } from '../api/public-settings';
import { useSsoProvider } from '../api/sso-provider';
import type { AuthType } from '../api/sso-provider';
import { AuthCard } from '../../../components/auth-card';
import { SignInForm } from './sign-in-form';

const PROVIDER_KEYS: Record<Exclude<AuthType, 1>, string> = {
  2: 'auth.providers.saml',
  3: 'auth.providers.oidc',
  4: 'auth.providers.ldap',
};

/**
 * /signin: detects the configured provider, then offers the password form (spec §2.1, §4), with the
 * administrator's banner above it and a sign-up link when sign-up is open.
 */
export function SignInPage() {
  const { t } = useTranslation();
  usePageTitle(t('auth.signIn.title'));
  const provider = useSsoProvider();
  const authType = provider.data?.auth_type;
  const settings = usePublicSettings();
  const banner = settings.data?.signin_banner.trim() ?? '';

  return (
    <AuthCard title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
      {provider.isPending ? (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 6, justifyContent: 'center' }}>
          <CircularProgress size={22} aria-hidden />
          <Typography sx={{ color: 'text.secondary' }}>{t('auth.signIn.detecting')}</Typography>
        </Box>
      ) : (
        <>
          {banner ? (
            <Alert
              severity="info"
              variant="outlined"
              icon={false}
              role="note"
              aria-label={t('authFlows.signIn.bannerLabel')}
              sx={{ mb: 2.5, whiteSpace: 'pre-line' }}
            >
              {banner}
            </Alert>
          ) : null}
          {authType !== undefined && authType !== 1 ? (
            <Alert severity="info" variant="outlined" sx={{ mb: 2.5 }}>
              {t('auth.signIn.providerNotice', { provider: t(PROVIDER_KEYS[authType]) })}
            </Alert>
          ) : null}
          <SignInForm />
          {settings.data?.allow_signup ? (
            <Typography variant="body2" sx={{ mt: 3, textAlign: 'center', color: 'text.secondary' }}>
              {t('authFlows.signIn.noAccount')}{' '}
              <Link component={RouterLink} to="/signup" underline="hover">
                {t('authFlows.signIn.createAccount')}
              </Link>
            </Typography>
          ) : null}
        </>
      )}
    </AuthCard>
  );
}

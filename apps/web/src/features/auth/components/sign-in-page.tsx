import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../components/use-page-title';
import { usePublicSettings } from '../api/public-settings';
import { useSsoProvider } from '../api/sso-provider';
import type { AuthType } from '../api/sso-provider';
import { AuthCard } from '../../../components/auth-card';
import { preloadLinkedScreens } from './preload-linked-screens';
import { SignInForm } from './sign-in-form';
import { SignOutNotice } from './sign-out-notice';
import { SingleSignOnButton } from './single-sign-on-button';

/** authprovider values of /signin that ask for the password form (spec §2.1, §7.1 force standard login). */
const STANDARD_PROVIDERS = new Set(['standard', 'password', 'local']);

/** True when /signin?authprovider= asks for the password form whatever the configured provider. */
function forcesStandardLogin(authprovider: string | null): boolean {
  return authprovider !== null && STANDARD_PROVIDERS.has(authprovider.trim().toLowerCase());
}

/** A discreet link under the form that switches between the organisation's sign-in and the password. */
function SwitchLink({ search, children }: { search: string; children: ReactNode }) {
  return (
    <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
      <Link component={RouterLink} to={{ search }} replace underline="hover" color="text.secondary">
        {children}
      </Link>
    </Typography>
  );
}

/**
 * The way in for the detected provider (spec §4): the password form (1), the same form against the
 * directory (4), or the single sign-on button (2, 3). Administrators keep the password (break-glass)
 * behind a link; a failed detection falls back to the password form with a notice.
 */
function SignInMethod({ authType, failed }: { authType: AuthType | undefined; failed: boolean }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (failed || authType === undefined)
    return (
      <>
        <Alert severity="warning" variant="outlined" sx={{ mb: 2.5 }}>
          {t('authFlows.signIn.detectFailed')}
        </Alert>
        <SignInForm />
      </>
    );
  if (authType === 1) return <SignInForm />;
  if (forcesStandardLogin(params.get('authprovider')))
    return (
      <>
        <Alert severity="info" variant="outlined" sx={{ mb: 2.5 }}>
          {t('authFlows.signIn.adminOnly')}
        </Alert>
        <SignInForm />
        <SwitchLink search="">
          {authType === 4 ? t('authFlows.signIn.useDirectory') : t('authFlows.signIn.useSso')}
        </SwitchLink>
      </>
    );
  return (
    <>
      {authType === 4 ? (
        <>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2.5 }}>
            {t('authFlows.signIn.directoryIntro')}
          </Typography>
          <SignInForm method="ldap" />
        </>
      ) : (
        <SingleSignOnButton authType={authType} />
      )}
      <SwitchLink search="?authprovider=standard">{t('authFlows.signIn.adminPassword')}</SwitchLink>
    </>
  );
}

/**
 * /signin: detects the configured provider (the detecting state while GET /sso runs), then offers
 * its way in (spec §2.1, §4), with why the console signed out (if it did so by itself) and the
 * administrator's banner above it, and a sign-up link when sign-up is open.
 */
export function SignInPage() {
  const { t } = useTranslation();
  usePageTitle(t('auth.signIn.title'));
  const provider = useSsoProvider();
  const settings = usePublicSettings();
  const banner = settings.data?.signin_banner.trim() ?? '';
  // The screens its links open arrive while the visitor reads this one.
  useEffect(() => preloadLinkedScreens(), []);

  return (
    <AuthCard title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
      <SignOutNotice />
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
          <SignInMethod authType={provider.data?.auth_type} failed={provider.isError} />
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

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { usePageTitle } from '../../../components/use-page-title';

/** What the single sign-on screen shows: work under way, a finished step, or a failure. */
export type SsoStatusView =
  { kind: 'working'; text: string } | { kind: 'done'; text: string } | { kind: 'failed'; text: string };

/**
 * The card of /sso and /ssoauth: a progress line, a plain result or the error, with the way out:
 * 'Back to sign-in' in the console's window, 'Close this window' in the popup.
 */
export function SsoStatus({ view, inPopup }: { view: SsoStatusView; inPopup: boolean }) {
  const { t } = useTranslation();
  usePageTitle(t('singleSignOn.title'));
  return (
    <AuthCard title={t('singleSignOn.title')}>
      {view.kind === 'working' ? (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 4, justifyContent: 'center' }}>
          <CircularProgress size={22} aria-hidden />
          <Typography sx={{ color: 'text.secondary' }}>{view.text}</Typography>
        </Box>
      ) : (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          {view.kind === 'failed' ? (
            <Alert severity="error" variant="outlined" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              <Typography component="h2" sx={{ fontWeight: 600, mb: 0.5 }}>
                {t('singleSignOn.failed')}
              </Typography>
              {view.text}
            </Alert>
          ) : (
            <Typography role="status">{view.text}</Typography>
          )}
          {inPopup ? (
            <Button variant="outlined" onClick={() => window.close()} sx={{ alignSelf: 'flex-start' }}>
              {t('singleSignOn.closeWindow')}
            </Button>
          ) : (
            <Button component={RouterLink} to="/signin" variant="outlined" sx={{ alignSelf: 'flex-start' }}>
              {t('common.backToSignIn')}
            </Button>
          )}
        </Box>
      )}
    </AuthCard>
  );
}

import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/use-session';

/**
 * Why the console signed the user out by itself, above the sign-in form: the session's lifetime
 * ran out, or the server ended it (revoked, expired there, user deleted) in its own words.
 * Nothing after a sign-out the user asked for.
 */
export function SignOutNotice() {
  const { t } = useTranslation();
  const { reason } = useSession();
  if (!reason) return null;
  return (
    <Alert severity="warning" variant="outlined" role="alert" sx={{ mb: 2.5 }}>
      <AlertTitle>{t('authFlows.signedOut.title')}</AlertTitle>
      {reason.kind === 'expired'
        ? t('authFlows.signedOut.expired')
        : (reason.message ?? t('authFlows.signedOut.revoked'))}
    </Alert>
  );
}

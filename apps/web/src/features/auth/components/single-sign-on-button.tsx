import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-error';
import { useStartSsoSignIn } from '../api/start-sso';

/** The protocol names shown on the button (proper names, the same in every language). */
const PROTOCOLS = { 2: 'SAML', 3: 'OpenID Connect' } as const;

/**
 * The sign-in of an organisation on SAML or OpenID Connect (spec §2.1, §4): one prominent button
 * that starts the flow and sends the browser to the identity provider; the server's refusal (for
 * example single sign-on not configured after all) shows above it.
 */
export function SingleSignOnButton({ authType }: { authType: keyof typeof PROTOCOLS }) {
  const { t } = useTranslation();
  const start = useStartSsoSignIn();
  // Once the answer is in, the browser is on its way to the identity provider: the progress stays.
  const leaving = start.isPending || start.isSuccess;
  return (
    <Stack spacing={2.5}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('authFlows.signIn.ssoIntro')}
      </Typography>
      {start.error ? (
        <Alert severity="error" variant="outlined">
          {errorText(start.error, t('message.somethingWentWrong'))}
        </Alert>
      ) : null}
      <Button
        variant="contained"
        size="large"
        fullWidth
        startIcon={<KeyOutlined />}
        loading={leaving}
        loadingPosition="start"
        onClick={() => start.mutate()}
        sx={{ py: 1.25 }}
      >
        {t('authFlows.signIn.ssoButton', { protocol: PROTOCOLS[authType] })}
      </Button>
      {leaving ? (
        <Typography role="status" variant="body2" sx={{ color: 'text.secondary', textAlign: 'center' }}>
          {t('authFlows.signIn.ssoRedirecting')}
        </Typography>
      ) : null}
    </Stack>
  );
}

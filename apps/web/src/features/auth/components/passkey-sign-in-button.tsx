import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-error';
import { passkeysSupported } from '../../../lib/passkeys';
import { usePasskeySignIn } from '../api/second-factor';

/** "Sign in with a passkey" under the password form: a passkey with user verification needs nothing else. */
export function PasskeySignInButton() {
  const { t } = useTranslation();
  const signIn = usePasskeySignIn();
  if (!passkeysSupported()) return null;
  return (
    <Stack spacing={2} sx={{ mt: 2.5 }}>
      <Divider>{t('authFlows.twoFactor.or')}</Divider>
      {signIn.isError ? (
        <Alert severity="error" variant="outlined">
          {errorText(signIn.error, t('message.somethingWentWrong'))}
        </Alert>
      ) : null}
      <Button
        variant="outlined"
        size="large"
        fullWidth
        startIcon={<KeyOutlined />}
        loading={signIn.isPending}
        onClick={() => signIn.mutate()}
      >
        {t('authFlows.twoFactor.passkeySignIn')}
      </Button>
    </Stack>
  );
}

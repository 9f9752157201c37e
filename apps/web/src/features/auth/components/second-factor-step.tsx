import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-error';
import { passkeysSupported } from '../../../lib/passkeys';
import type { PendingSignIn } from '../api/second-factor';
import { useSecondFactor } from '../api/second-factor';

/**
 * The second step of a sign-in (issue 20): the code from the authenticator app or a recovery code,
 * or the user's passkey. `onBack` returns to the password form (the waiting sign-in simply expires).
 */
export function SecondFactorStep({ pending, onBack }: { pending: PendingSignIn; onBack: () => void }) {
  const { t } = useTranslation();
  const verify = useSecondFactor(pending);
  const [code, setCode] = useState('');
  const hasApp = pending.methods.includes('totp');
  const hasPasskey = pending.methods.includes('passkey') && passkeysSupported();
  const hasCodes = pending.methods.includes('recovery-code');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return;
    verify.mutate({ kind: 'code', code: code.trim() });
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('authFlows.twoFactor.formLabel')}>
      <Stack spacing={2.5}>
        <Typography variant="h3" component="h2">
          {t('authFlows.twoFactor.title')}
        </Typography>
        {verify.isError ? (
          <Alert severity="error" variant="outlined">
            {errorText(verify.error, t('message.somethingWentWrong'))}
          </Alert>
        ) : null}
        {hasPasskey ? (
          <Button
            variant={hasApp ? 'outlined' : 'contained'}
            size="large"
            startIcon={<KeyOutlined />}
            loading={verify.isPending && verify.variables.kind === 'passkey'}
            onClick={() => verify.mutate({ kind: 'passkey' })}
          >
            {t('authFlows.twoFactor.usePasskey')}
          </Button>
        ) : null}
        {hasPasskey && (hasApp || hasCodes) ? <Divider>{t('authFlows.twoFactor.or')}</Divider> : null}
        {hasApp || hasCodes ? (
          <>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {hasApp ? t('authFlows.twoFactor.codeText') : t('authFlows.twoFactor.recoveryText')}
            </Typography>
            <TextField
              label={t('authFlows.twoFactor.codeLabel')}
              name="code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
              autoFocus={!hasPasskey}
              fullWidth
              slotProps={{ htmlInput: { dir: 'ltr', maxLength: 64, inputMode: hasApp ? 'numeric' : 'text' } }}
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              fullWidth
              disabled={code.trim() === ''}
              loading={verify.isPending && verify.variables.kind === 'code'}
              sx={{ py: 1.25 }}
            >
              {t('authFlows.twoFactor.verify')}
            </Button>
          </>
        ) : null}
        <Button color="inherit" onClick={onBack}>
          {t('authFlows.twoFactor.back')}
        </Button>
      </Stack>
    </Box>
  );
}

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import type { FormEvent } from 'react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-error';
import { useConfirmTotp, useStartTotp } from '../api/two-factor';

/**
 * Setting up an authenticator app: the server's new secret as a QR code (and as text for apps
 * without a camera), then a code the app shows to prove it. Recovery codes, when the server answers
 * them (the account's first factor), go to `onDone`.
 */
export function TotpSetupDialog(props: { onClose: () => void; onDone: (codes: string[] | null) => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const { mutate: begin } = start;

  // Mounted only while open: each opening asks for a new secret, and closing forgets everything.
  useEffect(() => begin(), [begin]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim().length === 0) return;
    confirm.mutate(code.trim(), {
      onSuccess: (answer) => {
        setCode('');
        props.onDone(answer.recovery_codes ?? null);
      },
    });
  };

  return (
    <Dialog open onClose={props.onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('account.twoFactor.setupTitle')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
            {t('account.twoFactor.setupScan')}
          </Typography>
          {start.isPending ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
              <CircularProgress aria-label={t('account.twoFactor.preparing')} />
            </Box>
          ) : null}
          {start.isError ? (
            <Alert severity="error" variant="outlined">
              {errorText(start.error, t('message.somethingWentWrong'))}
            </Alert>
          ) : null}
          {start.data ? (
            <>
              {/* Dark modules on white whatever the theme: cameras read that best. */}
              <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
                <Box sx={{ bgcolor: '#fff', p: 1.5, borderRadius: 1, lineHeight: 0 }}>
                  <QRCodeSVG
                    value={start.data.otpauth_uri}
                    size={176}
                    level="M"
                    title={t('account.twoFactor.qrLabel')}
                  />
                </Box>
              </Box>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('account.twoFactor.setupManual')}
              </Typography>
              <Box
                component="code"
                dir="ltr"
                data-testid="totp-secret"
                sx={{
                  display: 'block',
                  fontFamily: 'monospace',
                  bgcolor: 'action.hover',
                  borderRadius: 1,
                  px: 1,
                  py: 0.75,
                  my: 1,
                  wordBreak: 'break-all',
                }}
              >
                {start.data.secret.match(/.{1,4}/g)?.join(' ')}
              </Box>
              <TextField
                label={t('account.twoFactor.codeLabel')}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                autoComplete="one-time-code"
                autoFocus
                fullWidth
                sx={{ mt: 1 }}
                error={confirm.isError}
                helperText={
                  confirm.isError
                    ? errorText(confirm.error, t('message.somethingWentWrong'))
                    : t('account.twoFactor.codeHint')
                }
                slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr', maxLength: 8 } }}
              />
            </>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button color="inherit" onClick={props.onClose} disabled={confirm.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!start.data || code.trim() === ''}
            loading={confirm.isPending}
          >
            {t('account.twoFactor.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

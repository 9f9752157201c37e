import AddOutlined from '@mui/icons-material/AddOutlined';
import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/dates';
import { passkeysSupported } from '../../../lib/passkeys';
import type { Passkey } from '../api/two-factor';
import {
  useAddPasskey,
  useNewRecoveryCodes,
  useRemovePasskey,
  useRemoveTotp,
  useTwoFactorStatus,
} from '../api/two-factor';
import { LoadFailed } from './load-failed';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { SectionCard } from './section-card';
import { TotpSetupDialog } from './totp-setup-dialog';

/** A heading row of the card: what the factor is, whether it is on, and its action. */
function FactorRow(props: { title: string; text: string; on: boolean; action: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', py: 1.5 }}>
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        <Typography variant="subtitle1" component="h3" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          {props.title}
          <Chip
            size="small"
            color={props.on ? 'success' : 'default'}
            variant={props.on ? 'filled' : 'outlined'}
            label={props.on ? t('account.twoFactor.on') : t('account.twoFactor.off')}
          />
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {props.text}
        </Typography>
      </Box>
      {props.action}
    </Box>
  );
}

/**
 * Two-factor sign-in on My account (issue 20): the authenticator app (set up with a QR code, or
 * removed after a re-authorization with the factor), passkeys and security keys, and recovery codes.
 */
export function TwoFactorCard({ showRequired = true }: { showRequired?: boolean }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const status = useTwoFactorStatus();
  const removeTotp = useRemoveTotp();
  const addPasskey = useAddPasskey();
  const removePasskey = useRemovePasskey();
  const renew = useNewRecoveryCodes();
  const [settingUp, setSettingUp] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmTotp, setConfirmTotp] = useState(false);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const [passkeyName, setPasskeyName] = useState('');
  const data = status.data;
  const enrolled = Boolean(data && (data.totp || data.passkeys.length > 0));
  const failed = (error: unknown) => snackbar.error(errorText(error, t('message.somethingWentWrong')));

  return (
    <SectionCard icon={SecurityOutlined} title={t('account.twoFactor.title')}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('account.twoFactor.intro')}
      </Typography>
      {showRequired && data?.required && !enrolled ? (
        <Alert severity="warning" variant="outlined" sx={{ my: 1.5 }}>
          {t('account.twoFactor.required')}
        </Alert>
      ) : null}
      {status.isError ? <LoadFailed error={status.error} onRetry={() => void status.refetch()} /> : null}
      {status.isPending ? <Skeleton variant="rounded" height={160} /> : null}
      {data ? (
        <Stack divider={<Divider flexItem />}>
          <FactorRow
            title={t('account.twoFactor.appTitle')}
            text={t('account.twoFactor.appText')}
            on={data.totp}
            action={
              data.totp ? (
                <Button color="error" variant="outlined" onClick={() => setConfirmTotp(true)}>
                  {t('account.twoFactor.remove')}
                </Button>
              ) : (
                <Button variant="contained" onClick={() => setSettingUp(true)}>
                  {t('account.twoFactor.setUp')}
                </Button>
              )
            }
          />
          <Box sx={{ py: 1.5 }}>
            <FactorRow
              title={t('account.twoFactor.passkeysTitle')}
              text={t('account.twoFactor.passkeysText')}
              on={data.passkeys.length > 0}
              action={null}
            />
            {data.passkeys.map((p) => (
              <Box key={p.id} sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', py: 0.75, ps: 1 }}>
                <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
                  <Typography sx={{ overflowWrap: 'anywhere' }}>{p.name}</Typography>
                  <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                    {t('account.twoFactor.passkeyAdded', { when: formatDateTime(p.created_at) })}
                    {' · '}
                    {p.last_used_at
                      ? t('account.twoFactor.passkeyUsed', { when: formatDateTime(p.last_used_at) })
                      : t('account.twoFactor.passkeyNeverUsed')}
                  </Typography>
                </Box>
                <Button color="error" size="small" onClick={() => setDeleting(p)}>
                  {t('account.twoFactor.remove')}
                </Button>
              </Box>
            ))}
            {passkeysSupported() ? (
              <Box
                component="form"
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  addPasskey.mutate(passkeyName.trim(), {
                    onSuccess: (answer) => {
                      setPasskeyName('');
                      snackbar.success(t('account.twoFactor.passkeyAddedNow'));
                      if (answer.recovery_codes) setCodes(answer.recovery_codes);
                    },
                    onError: failed,
                  });
                }}
                sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start', mt: 1 }}
              >
                <TextField
                  size="small"
                  label={t('account.twoFactor.passkeyName')}
                  value={passkeyName}
                  onChange={(event) => setPasskeyName(event.target.value)}
                  slotProps={{ htmlInput: { maxLength: 64 } }}
                  sx={{ flex: '1 1 200px' }}
                />
                <Button type="submit" variant="outlined" startIcon={<AddOutlined />} loading={addPasskey.isPending}>
                  {t('account.twoFactor.addPasskey')}
                </Button>
              </Box>
            ) : (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('account.twoFactor.noPasskeys')}
              </Typography>
            )}
          </Box>
          <FactorRow
            title={t('account.twoFactor.codesHeading')}
            text={t('account.twoFactor.codesLeft', { n: data.recovery_codes_left })}
            on={data.recovery_codes_left > 0}
            action={
              enrolled ? (
                <Button
                  variant="outlined"
                  loading={renew.isPending}
                  onClick={() =>
                    renew.mutate(undefined, { onSuccess: (answer) => setCodes(answer.recovery_codes), onError: failed })
                  }
                >
                  {t('account.twoFactor.newCodes')}
                </Button>
              ) : null
            }
          />
        </Stack>
      ) : null}
      {settingUp ? (
        <TotpSetupDialog
          onClose={() => setSettingUp(false)}
          onDone={(recovery) => {
            setSettingUp(false);
            snackbar.success(t('account.twoFactor.appDone'));
            if (recovery) setCodes(recovery);
          }}
        />
      ) : null}
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
      <ConfirmDialog
        open={confirmTotp}
        title={t('account.twoFactor.removeAppTitle')}
        message={t('account.twoFactor.removeAppText')}
        confirmLabel={t('account.twoFactor.remove')}
        destructive
        busy={removeTotp.isPending}
        onConfirm={() => removeTotp.mutate(undefined, { onSettled: () => setConfirmTotp(false), onError: failed })}
        onCancel={() => setConfirmTotp(false)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('account.twoFactor.removePasskeyTitle')}
        message={t('account.twoFactor.removePasskeyText', { name: deleting?.name ?? '' })}
        confirmLabel={t('account.twoFactor.remove')}
        destructive
        busy={removePasskey.isPending}
        onConfirm={() => {
          if (deleting) removePasskey.mutate(deleting.id, { onSettled: () => setDeleting(null), onError: failed });
        }}
        onCancel={() => setDeleting(null)}
      />
    </SectionCard>
  );
}

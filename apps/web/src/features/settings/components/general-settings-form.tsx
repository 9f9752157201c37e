import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { useSaveGeneralSettings } from '../api/general-settings';
import type { GeneralField, GeneralForm } from '../model/general-form';
import { GENERAL_LIMITS, toGeneralBody, validateGeneralForm } from '../model/general-form';
import { SwitchField } from './switch-field';
import { TextInput } from './text-input';

/** The general settings form; Save sends every field, an empty SMTP password keeps the stored one. */
export function GeneralSettingsForm({
  initial,
  passwordSet,
  save,
}: {
  initial: GeneralForm;
  passwordSet: boolean;
  /** Held by the section: the form remounts when the saved settings arrive, the mutation does not. */
  save: ReturnType<typeof useSaveGeneralSettings>;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const [form, setForm] = useState(initial);
  const [tried, setTried] = useState(false);
  const errors = validateGeneralForm(form);
  const changed = JSON.stringify(form) !== JSON.stringify(initial);
  const set = (patch: Partial<GeneralForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    if (save.isError) save.reset();
  };
  const field = (name: GeneralField) => {
    const error = errors[name];
    const shown = error && (tried || form[name] !== initial[name]) ? t(error.key, error.values) : undefined;
    return { value: form[name], onChange: (value: string) => set({ [name]: value }), error: shown };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(errors).length > 0) return;
    save.mutate(toGeneralBody(form), { onSuccess: () => snackbar.success(t('settings.saved')) });
  };
  const heading = (text: string) => (
    <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
      {text}
    </Typography>
  );

  return (
    <Box component="form" noValidate onSubmit={submit}>
      {save.isError ? (
        <Alert severity="error" variant="outlined" sx={{ mb: 2 }}>
          {errorText(save.error)}
        </Alert>
      ) : null}
      <Grid container spacing={2.5}>
        <Grid size={12}>{heading(t('settings.general.accessHeading'))}</Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <SwitchField
            label={t('settings.general.allowSignup')}
            helper={t('settings.general.allowSignupHelper')}
            checked={form.allowSignup}
            onChange={(allowSignup) => set({ allowSignup })}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextInput
            label={t('settings.general.publicUrl')}
            helper={t('settings.general.publicUrlHelper')}
            inputMode="url"
            {...field('publicUrl')}
          />
        </Grid>
        <Grid size={12}>
          <TextInput
            label={t('settings.general.banner')}
            helper={t('settings.general.bannerHelper', {
              length: form.signinBanner.length,
              max: GENERAL_LIMITS.banner,
            })}
            multiline
            {...field('signinBanner')}
          />
        </Grid>

        <Grid size={12}>{heading(t('settings.general.recordingHeading'))}</Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <SwitchField
            label={t('settings.general.inputCapture')}
            helper={t('settings.general.inputCaptureHelper')}
            checked={form.recordingInputCapture}
            onChange={(recordingInputCapture) => set({ recordingInputCapture })}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <TextInput
            label={t('settings.general.retention')}
            helper={t('settings.general.retentionHelper')}
            inputMode="numeric"
            unit={t('settings.general.days')}
            {...field('retentionDays')}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <TextInput
            label={t('settings.general.idleTimeout')}
            helper={t('settings.general.idleTimeoutHelper')}
            inputMode="numeric"
            unit={t('settings.general.minutes')}
            {...field('idleMinutes')}
          />
        </Grid>

        <Grid size={12}>
          {heading(t('settings.general.sshHeading'))}
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('settings.general.sshHelper')}
          </Typography>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <TextInput
            label={t('settings.general.sshHandshake')}
            helper={t('settings.general.sshHandshakeHelper')}
            inputMode="numeric"
            unit={t('settings.general.seconds')}
            {...field('sshHandshakeSeconds')}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <TextInput
            label={t('settings.general.sshLogin')}
            helper={t('settings.general.sshLoginHelper')}
            inputMode="numeric"
            unit={t('settings.general.seconds')}
            {...field('sshLoginSeconds')}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <TextInput
            label={t('settings.general.sshAuthAttempts')}
            helper={t('settings.general.sshAuthAttemptsHelper')}
            inputMode="numeric"
            {...field('sshAuthAttempts')}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextInput
            label={t('settings.general.sshPerAddress')}
            helper={t('settings.general.sshPerAddressHelper')}
            inputMode="numeric"
            {...field('sshPerAddress')}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextInput
            label={t('settings.general.sshTotal')}
            helper={t('settings.general.sshTotalHelper')}
            inputMode="numeric"
            {...field('sshTotal')}
          />
        </Grid>

        <Grid size={12}>
          {heading(t('settings.general.mailHeading'))}
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('settings.general.mailHelper')}
          </Typography>
        </Grid>
        <Grid size={{ xs: 12, sm: 8 }}>
          <TextInput label={t('settings.general.smtpHost')} {...field('smtpHost')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextInput label={t('settings.general.smtpPort')} inputMode="numeric" {...field('smtpPort')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextInput label={t('settings.general.smtpUser')} autoComplete="off" {...field('smtpUser')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <PasswordField
            label={t('settings.general.smtpPassword')}
            value={form.smtpPassword}
            onChange={(event) => set({ smtpPassword: event.target.value })}
            helperText={passwordSet ? t('settings.general.smtpPasswordKept') : t('settings.general.smtpPasswordNone')}
            autoComplete="new-password"
            fullWidth
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextInput label={t('settings.general.smtpFrom')} {...field('smtpFrom')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <SwitchField
            label={t('settings.general.smtpSecure')}
            helper={t('settings.general.smtpSecureHelper')}
            checked={form.smtpSecure}
            onChange={(smtpSecure) => set({ smtpSecure })}
          />
        </Grid>
      </Grid>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, mt: 3 }}>
        <Button color="inherit" disabled={!changed || save.isPending} onClick={() => setForm(initial)}>
          {t('settings.discard')}
        </Button>
        <Button type="submit" variant="contained" disabled={!changed} loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Box>
    </Box>
  );
}

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { formatDuration } from '../../../lib/format';
import type { useSaveSecurity } from '../api/security-settings';
import type { SecurityForm } from '../model/security-form';
import { isSecurityFormValid, toSecurityBody, validateSecurityForm } from '../model/security-form';
import { EndpointsEditor } from './endpoints-editor';
import { SwitchField } from './switch-field';
import { TextInput } from './text-input';

/** Comparable form content (row ids differ between loads). */
function content(form: SecurityForm): string {
  return JSON.stringify({ ...form, endpoints: form.endpoints.map(({ method, path }) => [method, path]) });
}

/**
 * The security settings form. Saving needs fresh authentication: when the server asks, the API
 * client opens the Authorize dialog and sends the save again once authorized.
 */
export function SecuritySettingsForm({
  initial,
  save,
}: {
  initial: SecurityForm;
  /** Held by the section: the form remounts when the saved settings arrive, the mutation does not. */
  save: ReturnType<typeof useSaveSecurity>;
}) {
  const { t, i18n } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const [form, setForm] = useState(initial);
  const [tried, setTried] = useState(false);
  const errors = validateSecurityForm(form);
  const changed = content(form) !== content(initial);
  const set = (patch: Partial<SecurityForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    if (save.isError) save.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!isSecurityFormValid(errors)) return;
    save.mutate(toSecurityBody(form), { onSuccess: () => snackbar.success(t('settings.saved')) });
  };
  const minutes = Number(form.maxAgeMinutes);
  const maxAgeError = errors.maxAgeMinutes ? t(errors.maxAgeMinutes.key, errors.maxAgeMinutes.values) : undefined;

  return (
    <Box component="form" noValidate onSubmit={submit}>
      {save.isError ? (
        <Alert severity="error" variant="outlined" sx={{ mb: 2 }}>
          {errorText(save.error)}
        </Alert>
      ) : null}
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 6 }}>
          <SwitchField
            label={t('settings.security.singleUse')}
            helper={t('settings.security.singleUseHelper')}
            checked={form.singleUse}
            onChange={(singleUse) => set({ singleUse })}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <SwitchField
            label={t('settings.security.freshness')}
            helper={t('settings.security.freshnessHelper')}
            checked={form.freshness}
            onChange={(freshness) => set({ freshness })}
          />
        </Grid>
        <Grid size={12}>
          <EndpointsEditor
            rows={form.endpoints}
            errors={errors}
            showAll={tried}
            onChange={(endpoints) => set({ endpoints })}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <TextInput
            label={t('settings.security.maxAge')}
            value={form.maxAgeMinutes}
            onChange={(maxAgeMinutes) => set({ maxAgeMinutes })}
            inputMode="numeric"
            unit={t('settings.general.minutes')}
            error={maxAgeError}
            helper={maxAgeError ? undefined : formatDuration(minutes * 60_000, i18n.language)}
          />
        </Grid>
      </Grid>
      <Alert severity="info" variant="outlined" sx={{ mt: 3 }}>
        {t('settings.security.needsAuthorization')}
      </Alert>
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

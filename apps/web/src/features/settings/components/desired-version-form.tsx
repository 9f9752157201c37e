import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useSaveVersion } from '../api/versions';

/** A version tag as the server takes it (packages/contracts routes/license.ts). */
const TAG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Set the desired agent version tag (POST api/version). */
export function DesiredVersionForm({ current }: { current: string | null }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const save = useSaveVersion();
  const [tag, setTag] = useState(current ?? '');
  const trimmed = tag.trim();
  const invalid = trimmed !== '' && !TAG.test(trimmed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || invalid) return;
    save.mutate(trimmed, { onSuccess: () => snackbar.success(t('settings.saved')) });
  };
  return (
    <Box component="form" noValidate onSubmit={submit}>
      {save.isError ? (
        <Alert severity="error" variant="outlined" sx={{ mb: 2 }}>
          {errorText(save.error)}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          label={t('settings.versions.desiredField')}
          value={tag}
          onChange={(event) => {
            setTag(event.target.value);
            if (save.isError) save.reset();
          }}
          error={invalid}
          helperText={invalid ? t('settings.versions.tagInvalid') : t('settings.versions.tagHelper')}
          sx={{ flex: '1 1 240px', maxWidth: 360 }}
          slotProps={{ htmlInput: { maxLength: 64, spellCheck: false } }}
        />
        <Button
          type="submit"
          variant="contained"
          disabled={trimmed === '' || invalid || trimmed === current}
          loading={save.isPending}
          sx={{ mt: 1 }}
        >
          {t('common.save')}
        </Button>
      </Box>
    </Box>
  );
}

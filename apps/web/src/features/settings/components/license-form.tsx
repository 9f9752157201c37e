import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useSaveLicense } from '../api/license';

/** Paste a licence and install it; the server's reason shows when it refuses (forged, expired, malformed). */
export function LicenseForm() {
  const { t } = useTranslation();
  const headingId = useId();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const save = useSaveLicense();
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    save.mutate(text.trim(), {
      onSuccess: () => {
        setText('');
        snackbar.success(t('settings.license.installed'));
      },
    });
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('settings.license.installTitle')}
      </Typography>
      {save.isError ? (
        <Alert severity="error" variant="outlined" sx={{ mb: 2 }}>
          {t('settings.license.refused', { message: errorText(save.error) })}
        </Alert>
      ) : null}
      <TextField
        label={t('settings.license.text')}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (save.isError) save.reset();
        }}
        helperText={t('settings.license.textHelper')}
        multiline
        minRows={3}
        maxRows={8}
        fullWidth
        slotProps={{ htmlInput: { spellCheck: false, maxLength: 8192, sx: { fontFamily: 'monospace', fontSize: 13 } } }}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button type="submit" variant="contained" disabled={text.trim() === ''} loading={save.isPending}>
          {t('settings.license.install')}
        </Button>
      </Box>
    </Box>
  );
}

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import dayjs from 'dayjs';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../../components/use-error-text';
import { useGenerateRegistrationKey } from '../../api/registration-keys';
import type { GeneratedKey } from './key-chooser';

/** The longest description the server takes. */
const MAX_DESCRIPTION = 100;

/** Generates a registration key right here: POST api/apikey {description}. */
export function GenerateKeyForm({ onGenerated }: { onGenerated: (key: GeneratedKey) => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useGenerateRegistrationKey();
  const [description, setDescription] = useState(() =>
    t('hosts.addDialog.defaultDescription', { date: dayjs().format('L') }),
  );
  const missing = description.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing) return;
    mutation.mutate(description.trim(), {
      onSuccess: (answer) => {
        snackbar.success(t('hosts.addDialog.keyCreated'));
        onGenerated(answer);
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
      <TextField
        label={t('hosts.addDialog.description')}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        error={missing}
        helperText={missing ? t('hosts.addDialog.descriptionRequired') : t('hosts.addDialog.descriptionHelper')}
        fullWidth
        size="small"
        slotProps={{ htmlInput: { maxLength: MAX_DESCRIPTION, 'aria-required': true } }}
      />
      <Button type="submit" variant="contained" loading={mutation.isPending} sx={{ flexShrink: 0, mt: 0.25 }}>
        {t('hosts.addDialog.generate')}
      </Button>
    </Box>
  );
}

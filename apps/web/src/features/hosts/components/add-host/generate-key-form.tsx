import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import dayjs from 'dayjs';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyLimitFields } from '../../../../components/key-limits/key-limit-fields';
import { defaultKeyLimits, parseKeyLimits } from '../../../../components/key-limits/key-limits';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../../components/use-error-text';
import { useGenerateRegistrationKey } from '../../api/registration-keys';
import type { GeneratedKey } from './key-chooser';

/** The longest description the server takes. */
const MAX_DESCRIPTION = 100;

/**
 * Generates a registration key right here: POST api/apikey with its description, how long it
 * works and how many agents it may enrol (the server's defaults: one, within 24 hours).
 */
export function GenerateKeyForm({ onGenerated }: { onGenerated: (key: GeneratedKey) => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useGenerateRegistrationKey();
  const [description, setDescription] = useState(() =>
    t('hosts.addDialog.defaultDescription', { date: dayjs().format('L') }),
  );
  const [limits, setLimits] = useState(defaultKeyLimits);
  const missing = description.trim() === '';
  const parsed = parseKeyLimits(limits);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing || !('limits' in parsed)) return;
    mutation.mutate(
      { description: description.trim(), limits: parsed.limits },
      {
        onSuccess: (answer) => {
          snackbar.success(t('hosts.addDialog.keyCreated'));
          onGenerated(answer);
        },
        onError: (error) => snackbar.error(errorText(error)),
      },
    );
  };
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={1.5}>
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
      <KeyLimitFields
        value={limits}
        onChange={setLimits}
        errors={'errors' in parsed ? parsed.errors : {}}
        size="small"
      />
      <Box>
        <Button type="submit" variant="contained" loading={mutation.isPending}>
          {t('hosts.addDialog.generate')}
        </Button>
      </Box>
    </Stack>
  );
}

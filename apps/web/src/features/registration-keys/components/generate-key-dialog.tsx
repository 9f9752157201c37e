import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyLimitFields } from '../../../components/key-limits/key-limit-fields';
import { defaultKeyLimits, parseKeyLimits } from '../../../components/key-limits/key-limits';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { GeneratedKey } from '../api/create-key';
import { useCreateKey } from '../api/create-key';

/** The longest description the server takes. */
const MAX_DESCRIPTION = 100;

/** Props of the generate dialog; `onGenerated` receives the answer with the secret, once. */
export interface GenerateKeyDialogProps {
  open: boolean;
  onClose: () => void;
  onGenerated: (key: GeneratedKey) => void;
}

/**
 * Generate a registration key: what it is for, how long it works and how many agents it may
 * enrol (the server's defaults: one agent within 24 hours).
 */
export function GenerateKeyDialog({ open, onClose, onGenerated }: GenerateKeyDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useCreateKey();
  const [description, setDescription] = useState('');
  const [limits, setLimits] = useState(defaultKeyLimits);
  const [touched, setTouched] = useState(false);
  const missing = description.trim() === '';
  const parsed = parseKeyLimits(limits);

  const close = () => {
    setDescription('');
    setLimits(defaultKeyLimits());
    setTouched(false);
    mutation.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (missing || !('limits' in parsed)) return;
    mutation.mutate(
      { description: description.trim(), limits: parsed.limits },
      {
        onSuccess: (answer) => {
          snackbar.success(t('registrationKeys.created'));
          close();
          onGenerated(answer);
        },
        onError: (error) => snackbar.error(errorText(error)),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={mutation.isPending ? undefined : close}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('registrationKeys.generateDialog.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('registrationKeys.generateDialog.text')}</DialogContentText>
          <Stack spacing={2.5}>
            <TextField
              label={t('registrationKeys.generateDialog.description')}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && missing}
              helperText={
                touched && missing
                  ? t('registrationKeys.generateDialog.descriptionRequired')
                  : t('registrationKeys.generateDialog.descriptionHelper')
              }
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: MAX_DESCRIPTION, 'aria-required': true } }}
            />
            <KeyLimitFields value={limits} onChange={setLimits} errors={'errors' in parsed ? parsed.errors : {}} />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {t('registrationKeys.generateDialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { useAddSshKey } from '../api/add-ssh-key';

/** Registers an SSH public key: a name and one OpenSSH line; the server's reason shows on refusal. */
export function AddSshKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const add = useAddSshKey();
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const ready = name.trim() !== '' && publicKey.trim() !== '';

  const close = () => {
    setName('');
    setPublicKey('');
    add.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    add.mutate(
      { name: name.trim(), public_key: publicKey.trim() },
      {
        onSuccess: () => {
          snackbar.success(t('account.keys.added', { name: name.trim() }));
          close();
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={add.isPending ? undefined : close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('account.keys.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {add.isError ? (
              <Alert severity="error" variant="outlined">
                {errorText(add.error, t('message.somethingWentWrong'))}
              </Alert>
            ) : null}
            <TextField
              label={t('account.keys.name')}
              placeholder={t('account.keys.namePlaceholder')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 100, 'aria-required': true } }}
            />
            <TextField
              label={t('account.keys.publicKey')}
              helperText={t('account.keys.publicKeyHelper')}
              value={publicKey}
              onChange={(event) => setPublicKey(event.target.value)}
              multiline
              minRows={4}
              fullWidth
              slotProps={{
                htmlInput: { spellCheck: false, 'aria-required': true, dir: 'ltr' },
                input: { sx: { fontFamily: 'monospace', fontSize: '0.85rem' } },
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={add.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={!ready} loading={add.isPending}>
            {t('account.keys.addSubmit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

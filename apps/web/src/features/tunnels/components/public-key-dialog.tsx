import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import type { TunnelItem } from '../api/list-tunnels';
import { authorizedKeysCommand } from '../form/authorized-keys';
import { useLast } from './use-last';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85rem' };

function Copyable({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        label={label}
        value={value}
        fullWidth
        multiline
        onFocus={(event) => event.target.select()}
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false, dir: 'ltr', style: MONO } }}
      />
      <CopyButton text={value} label={copyLabel} />
    </Box>
  );
}

/** An ssh definition's public key, with the line that puts it in the login's authorized_keys. */
export function PublicKeyDialog(props: { item: TunnelItem | null; isNew: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const item = useLast(props.item);
  const key = item?.public_key ?? '';
  const login = item?.ssh_login ?? '';
  const hostname = item?.host.hostname ?? '';
  return (
    <Dialog
      open={props.item !== null && key !== ''}
      onClose={props.onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id={titleId}>{t('tunnels.publicKey.title', { name: item?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          {props.isNew ? (
            <Alert severity="success" variant="outlined">
              {t('tunnels.publicKey.generated')}
            </Alert>
          ) : null}
          <Typography variant="body2">{t('tunnels.publicKey.text', { login, hostname })}</Typography>
          <Copyable label={t('tunnels.publicKey.key')} value={key} copyLabel={t('tunnels.publicKey.copyKey')} />
          <Typography variant="body2">{t('tunnels.publicKey.commandText', { login, hostname })}</Typography>
          <Copyable
            label={t('tunnels.publicKey.command')}
            value={authorizedKeysCommand(login, key)}
            copyLabel={t('tunnels.publicKey.copyCommand')}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button variant="contained" onClick={props.onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

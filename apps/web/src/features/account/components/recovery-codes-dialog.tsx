import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';

/** Offers the codes as a text file to keep. */
function download(codes: readonly string[]): void {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'gatehouse-recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

/** Recovery codes, shown this once (only their hashes are kept): copy, download, then close. */
export function RecoveryCodesDialog({ codes, onClose }: { codes: readonly string[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const list = codes ?? [];
  return (
    <Dialog open={codes !== null} onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t('account.twoFactor.codesTitle')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" variant="outlined" sx={{ mb: 2 }}>
          {t('account.twoFactor.codesOnce')}
        </Alert>
        <Box
          component="ul"
          aria-label={t('account.twoFactor.codesTitle')}
          dir="ltr"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gridTemplateColumns: 'repeat(2, 1fr)',
            gap: 1,
            fontFamily: 'monospace',
            fontSize: '0.95rem',
          }}
        >
          {list.map((code) => (
            <Box component="li" key={code} sx={{ bgcolor: 'action.hover', borderRadius: 1, px: 1, py: 0.5 }}>
              {code}
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5, gap: 1, flexWrap: 'wrap' }}>
        <CopyButton text={list.join('\n')} label={t('account.twoFactor.copyCodes')} />
        <Button variant="outlined" onClick={() => download(list)}>
          {t('account.twoFactor.downloadCodes')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('account.twoFactor.codesSaved')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

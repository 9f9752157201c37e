import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { formatCount } from '../../../lib/format';
import type { ClipboardPolicy } from '../connection/desktop-protocol';
import { CLIPBOARD_MAX_BYTES, utf8Bytes } from '../connection/desktop-protocol';

/** Props of the clipboard dialog. */
export interface ClipboardDialogProps {
  open: boolean;
  /** What the definition allows (never 'off': the button is not shown then). */
  policy: ClipboardPolicy;
  /** What the desktop copied last, or null. */
  received: string | null;
  onSend: (text: string) => void;
  onClose: () => void;
}

/**
 * The clipboard between this computer and the desktop: text typed or pasted here becomes the
 * desktop's clipboard (paste it there with Ctrl+V); what the desktop copies shows here to copy.
 */
export function ClipboardDialog({ open, policy, received, onSend, onClose }: ClipboardDialogProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [text, setText] = useState('');
  // The gateway takes at most CLIPBOARD_MAX_BYTES of UTF-8 at a time: a longer text is not sent.
  const tooLong = utf8Bytes(text) > CLIPBOARD_MAX_BYTES;
  const send = () => {
    if (tooLong) return;
    onSend(text);
    setText('');
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('desktop.clipboard.title')}</DialogTitle>
      <DialogContent>
        {policy === 'to-desktop' || policy === 'from-desktop' ? (
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
            {t(policy === 'to-desktop' ? 'desktop.clipboard.onlyIn' : 'desktop.clipboard.onlyOut')}
          </Typography>
        ) : null}
        {policy === 'from-desktop' ? null : (
          <>
            <TextField
              label={t('desktop.clipboard.sendLabel')}
              helperText={
                tooLong
                  ? t('desktop.clipboard.tooLong', {
                      size: formatCount(utf8Bytes(text), i18n.language),
                      max: formatCount(CLIPBOARD_MAX_BYTES, i18n.language),
                    })
                  : t('desktop.clipboard.sendHelp')
              }
              error={tooLong}
              value={text}
              onChange={(event) => setText(event.target.value)}
              multiline
              minRows={3}
              maxRows={8}
              fullWidth
              autoFocus
              margin="dense"
            />
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
              <Button variant="contained" startIcon={<SendOutlined />} disabled={text === '' || tooLong} onClick={send}>
                {t('desktop.clipboard.send')}
              </Button>
            </Box>
          </>
        )}
        {policy === 'to-desktop' ? null : (
          <>
            <Typography variant="subtitle2" component="h2" sx={{ mt: policy === 'from-desktop' ? 1 : 3, mb: 1 }}>
              {t('desktop.clipboard.received')}
            </Typography>
            {received ? (
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
                <Box
                  component="pre"
                  aria-label={t('desktop.clipboard.received')}
                  sx={{
                    flex: 1,
                    minWidth: 200,
                    m: 0,
                    p: 1,
                    maxHeight: 200,
                    overflow: 'auto',
                    whiteSpace: 'pre-wrap',
                    wordBreak: 'break-word',
                    fontFamily: 'monospace',
                    fontSize: '0.85rem',
                    bgcolor: 'action.hover',
                    borderRadius: 1,
                    unicodeBidi: 'plaintext',
                  }}
                >
                  {received}
                </Box>
                <CopyButton text={received} />
              </Box>
            ) : (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('desktop.clipboard.nothing')}
              </Typography>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from './snackbar/snackbar-context';

/** Writes text to the clipboard; false when the browser refuses or has no clipboard. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator === 'undefined' || !navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A Copy button (its text is `label`, else 'Copy') confirming with 'Copied to the clipboard'. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const copy = async () => {
    if (await copyText(text)) snackbar.success(t('common.copied'));
    else snackbar.error(t('shared.copyFailed'));
  };
  return (
    <Button variant="outlined" startIcon={<ContentCopyOutlined />} onClick={() => void copy()} sx={{ flexShrink: 0 }}>
      {label ?? t('common.copy')}
    </Button>
  );
}

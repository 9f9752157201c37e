import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { downloadMedia } from '../api/media';

/** Downloads the asciicast (plays in asciinema) or the video through a short-lived ticket link. */
export function DownloadButton({ recordingId, kind }: { recordingId: string; kind: 'cast' | 'video' }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const [busy, setBusy] = useState(false);
  const start = () => {
    setBusy(true);
    downloadMedia(recordingId, kind)
      .catch((error: unknown) => snackbar.error(t('player.download.failed', { message: (error as Error).message })))
      .finally(() => setBusy(false));
  };
  return (
    <Button size="small" variant="outlined" startIcon={<DownloadOutlined />} disabled={busy} onClick={start}>
      {t(kind === 'cast' ? 'player.download.cast' : 'player.download.video')}
    </Button>
  );
}

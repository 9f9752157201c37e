import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { type MediaKind, downloadMedia } from '../api/media';

const LABELS = { cast: 'player.download.cast', video: 'player.download.video', bundle: 'player.download.bundle' };

/**
 * Downloads the asciicast (plays in asciinema), the video, or the evidence bundle (with how to
 * verify it offline in its tooltip) through a short-lived ticket link.
 */
export function DownloadButton({ recordingId, kind }: { recordingId: string; kind: MediaKind }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const [busy, setBusy] = useState(false);
  const start = () => {
    setBusy(true);
    downloadMedia(recordingId, kind)
      .catch((error: unknown) => snackbar.error(t('player.download.failed', { message: (error as Error).message })))
      .finally(() => setBusy(false));
  };
  const button = (
    <Button
      size="small"
      variant="outlined"
      startIcon={kind === 'bundle' ? <Inventory2Outlined /> : <DownloadOutlined />}
      disabled={busy}
      onClick={start}
    >
      {t(LABELS[kind])}
    </Button>
  );
  if (kind !== 'bundle') return button;
  const help = t('player.download.bundleHelp', { file: `gatehouse-session-${recordingId}.tar` });
  return (
    <Tooltip title={help} describeChild>
      {button}
    </Tooltip>
  );
}

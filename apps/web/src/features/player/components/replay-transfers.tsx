import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { RecordingTransfer } from '../api/transfers';
import { formatClock } from '../replay/playback-clock';

function icon(item: RecordingTransfer) {
  if (item.direction === 'upload') return <UploadOutlined fontSize="small" aria-hidden />;
  if (item.direction === 'download') return <DownloadOutlined fontSize="small" aria-hidden />;
  if (item.op === 'unparsable') return <WarningAmberOutlined fontSize="small" aria-hidden />;
  return <InsertDriveFileOutlined fontSize="small" aria-hidden />;
}

/** The recording's file transfers (sftp, scp) as a list beside the timeline, each a jump to its moment. */
export function ReplayTransfers({
  transfers,
  error,
  onJump,
}: {
  transfers: RecordingTransfer[] | undefined;
  error: string | undefined;
  onJump: (t: number) => void;
}) {
  const { t } = useTranslation();
  if (error) return <Alert severity="error">{t('player.transfers.loadFailed', { message: error })}</Alert>;
  if (!transfers || transfers.length === 0) return null;
  return (
    <Stack spacing={0.5}>
      <Typography variant="subtitle2" component="h3">
        {t('player.transfers.title')}
      </Typography>
      <List dense aria-label={t('player.transfers.title')} sx={{ maxHeight: 260, overflowY: 'auto' }}>
        {transfers.map((item) => {
          const op = t(`player.transfers.op.${item.op}`);
          return (
            <ListItemButton
              key={item.id}
              onClick={() => onJump(item.t)}
              aria-label={t('player.transfers.jump', { time: formatClock(item.t), op, path: item.path })}
            >
              <ListItemIcon sx={{ minWidth: 32 }}>{icon(item)}</ListItemIcon>
              <ListItemText
                primary={item.target ? `${item.path} → ${item.target}` : item.path || op}
                secondary={`${formatClock(item.t)} · ${op} · ${item.outcome === 'ok' ? t('player.transfers.ok') : t('player.transfers.failed', { reason: item.outcome })}`}
                slotProps={{ primary: { dir: 'ltr', sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } } }}
              />
            </ListItemButton>
          );
        })}
      </List>
    </Stack>
  );
}

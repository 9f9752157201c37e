import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useRecordingDetail } from '../api/recording-detail';
import { useLiveWatch } from '../live/use-live-watch';
import { useTerminalHost } from '../terminal/use-terminal-host';
import { LiveNotice } from './live-notice';
import { TerminalFrame } from './terminal-frame';

/** Watches a live SSH session as it happens: the catch-up first, then every chunk as it is recorded. */
export function LiveView({ recordingId }: { recordingId: string }) {
  const detail = useRecordingDetail(recordingId);
  // The terminal waits for the session's size: output drawn at another width would wrap wrongly.
  if (detail.isPending) return null;
  const { width, height } = detail.data ?? { width: null, height: null };
  // A session without a terminal (ssh host command) has no size: 80×24, bare line feeds as new lines.
  const hasTerminal = !!width && !!height;
  const size = { cols: hasTerminal ? (width ?? 80) : 80, rows: hasTerminal ? (height ?? 24) : 24, hasTerminal };
  return <LiveTerminal recordingId={recordingId} size={size} />;
}

function LiveTerminal({
  recordingId,
  size,
}: {
  recordingId: string;
  size: { cols: number; rows: number; hasTerminal: boolean };
}) {
  const { t } = useTranslation();
  const [frameRef, host] = useTerminalHost(size.cols, size.rows, 48);
  const { state, reattach } = useLiveWatch(recordingId, host, size);
  const chip =
    state.status === 'live' ? (
      <Chip
        size="small"
        color="error"
        label={t('player.live.live')}
        icon={<Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'currentColor' }} />}
      />
    ) : state.status === 'ended' ? (
      <Chip size="small" label={t('player.live.ended')} />
    ) : state.status === 'connecting' ? (
      <Chip size="small" variant="outlined" label={t('player.live.connecting')} />
    ) : state.status === 'dropped' ? (
      <Chip size="small" color="warning" variant="outlined" label={t('player.live.detached')} />
    ) : null;
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minHeight: 32 }}>
        <Box data-testid="live-status" data-status={state.status} role="status">
          {chip}
        </Box>
        {state.resyncs > 0 ? (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('player.live.resynced', { count: state.resyncs })}
          </Typography>
        ) : null}
      </Stack>
      <LiveNotice state={state} onReattach={reattach} />
      <TerminalFrame frameRef={frameRef} label={t('player.live.terminal')} testId="live-terminal" />
    </Stack>
  );
}

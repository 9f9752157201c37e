import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useRecordingTransfers } from '../api/transfers';
import { useReplay } from '../replay/use-replay';
import { useTerminalHost } from '../terminal/use-terminal-host';
import { DownloadButton } from './download-button';
import { IntegrityChip } from './integrity-chip';
import { ReplayControls } from './replay-controls';
import { ReplaySearch } from './replay-search';
import { ReplayTransfers } from './replay-transfers';
import { TerminalScaleToggle, usePlayerScale } from './scale-toggle';
import { TerminalFrame } from './terminal-frame';

/** What the replay needs of a session: the list's row or the detail both do. */
export interface PlayableRecording {
  id: string;
  ended_on: string | null;
  width?: number | null;
  height?: number | null;
}

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Room below the terminal for the controls (two rows) and the frame's padding: kept in view at 900 px. */
const CONTROLS_HEIGHT = 150;

/**
 * Replays an SSH session in a terminal: streams the asciicast in ranges, seeks through the server's
 * index, searches the output, verifies integrity and downloads the file. Keyboard: space plays or
 * pauses, the arrows step 5 s (30 s with Shift), Home and End go to either end.
 */
export function ReplayPlayer({ recording }: { recording: PlayableRecording }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const [frameRef, host] = useTerminalHost(recording.width || 80, recording.height || 24, CONTROLS_HEIGHT);
  const { engine, state } = useReplay(recording.id, host, recording.ended_on === null);
  // Fit or actual size, as this browser chose last.
  const [scale, setScale] = usePlayerScale();
  useEffect(() => host?.setScale(scale), [host, scale]);
  // ?t=seconds (search across recordings links so): once ready, the replay opens at that moment.
  const [params] = useSearchParams();
  const startAt = Number(params.get('t') ?? '');
  const started = useRef(false);
  useEffect(() => {
    if (started.current || state.status !== 'ready') return;
    started.current = true;
    if (Number.isFinite(startAt) && startAt > 0) void engine.seek(startAt);
  }, [engine, state.status, startAt]);
  const transfers = useRecordingTransfers(recording.id);
  const marks = transfers.data?.transfers.map((item) => item.t);

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (!engine || TYPING.has(target.tagName) || target.isContentEditable) return;
    // In the terminal at actual size the arrows pan it (the browser scrolls it), as in any scroll area.
    if (event.key.startsWith('Arrow') && target.closest('[data-pans]')) return;
    // In a right-to-left page the seek bar runs right to left, so the arrows follow it.
    const forward = theme.direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const back = theme.direction === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    const step = event.shiftKey ? 30 : 5;
    if (event.key === ' ' && target.tagName !== 'BUTTON') engine.toggle();
    else if (event.key === forward && !target.closest('.MuiSlider-root')) void engine.seek(state.position + step);
    else if (event.key === back && !target.closest('.MuiSlider-root')) void engine.seek(state.position - step);
    else if (event.key === 'Home' && !target.closest('.MuiSlider-root')) void engine.seek(0);
    else if (event.key === 'End' && !target.closest('.MuiSlider-root')) void engine.seek(state.duration);
    else return;
    event.preventDefault();
  };

  return (
    <Box
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="replay-player"
      data-seek-ms={state.seekMs ?? undefined}
      sx={{ outline: 'none', '&:focus-visible': { boxShadow: `0 0 0 2px ${theme.palette.primary.main}` } }}
    >
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <IntegrityChip recordingId={recording.id} />
          <TerminalScaleToggle value={scale} onChange={setScale} />
          <Box sx={{ flex: 1 }} />
          <DownloadButton recordingId={recording.id} kind="cast" />
          {recording.ended_on !== null ? <DownloadButton recordingId={recording.id} kind="bundle" /> : null}
        </Stack>
        {state.status === 'error' ? (
          <Alert severity="error">{t('player.replay.loadFailed', { message: state.error ?? '' })}</Alert>
        ) : null}
        <TerminalFrame
          frameRef={frameRef}
          label={t('player.replay.terminal')}
          testId="replay-terminal"
          pans={scale === 'actual'}
        />
        <ReplayControls engine={engine} state={state} marks={marks} />
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('player.replay.keys')}
        </Typography>
        <ReplaySearch recordingId={recording.id} onJump={(hit) => void engine?.jumpTo(hit.t, hit.offset)} />
        <ReplayTransfers
          transfers={transfers.data?.transfers}
          error={transfers.isError ? transfers.error.message : undefined}
          onJump={(t) => void engine?.seek(t)}
        />
      </Stack>
    </Box>
  );
}

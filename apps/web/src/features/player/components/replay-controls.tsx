import PauseRounded from '@mui/icons-material/PauseRounded';
import PlayArrowRounded from '@mui/icons-material/PlayArrowRounded';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEEDS, formatClock } from '../replay/playback-clock';
import type { ReplayEngine, ReplayState } from '../replay/replay-engine';
import { JumpToTime } from './jump-to-time';

/**
 * Play and pause, the seek bar with the time (and marks where files were transferred), speed,
 * idle skipping and a jump to a typed time.
 */
export function ReplayControls({
  engine,
  state,
  marks,
}: {
  engine: ReplayEngine | null;
  state: ReplayState;
  /** Times (seconds) marked on the seek bar: the recording's file transfers. */
  marks?: readonly number[];
}) {
  const { t } = useTranslation();
  // While the thumb is dragged it shows the dragged time; the seek happens on release.
  const [dragging, setDragging] = useState<number | null>(null);
  const ready = engine !== null && state.status === 'ready';
  const shown = dragging ?? state.position;
  const label = state.playing ? t('player.replay.pause') : t('player.replay.play');
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Tooltip title={label}>
          <span>
            <IconButton aria-label={label} disabled={!ready} onClick={() => engine?.toggle()} color="primary">
              {state.playing ? <PauseRounded /> : <PlayArrowRounded />}
            </IconButton>
          </span>
        </Tooltip>
        <Slider
          aria-label={t('player.replay.position')}
          disabled={!ready}
          min={0}
          max={Math.max(state.duration, 0.001)}
          step={state.duration > 600 ? 1 : 0.1}
          value={Math.min(shown, state.duration)}
          valueLabelDisplay="auto"
          marks={marks && marks.length > 0 ? marks.map((value) => ({ value })) : undefined}
          valueLabelFormat={formatClock}
          getAriaValueText={formatClock}
          onChange={(_event, value) => setDragging(value)}
          onChangeCommitted={(_event, value) => {
            setDragging(null);
            void engine?.seek(value);
          }}
        />
        <Typography
          variant="body2"
          data-testid="replay-time"
          dir="ltr"
          sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
        >
          {formatClock(shown)} / {formatClock(state.duration)}
        </Typography>
      </Stack>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label={t('player.replay.speed')}
          value={state.speed}
          onChange={(event) => engine?.setSpeed(Number(event.target.value))}
          sx={{ minWidth: 110 }}
        >
          {SPEEDS.map((speed) => (
            <MenuItem key={speed} value={speed}>
              {`${String(speed)}×`}
            </MenuItem>
          ))}
        </TextField>
        <Tooltip title={t('player.replay.skipIdleHint')}>
          <FormControlLabel
            control={<Switch checked={state.skipIdle} onChange={(_event, checked) => engine?.setSkipIdle(checked)} />}
            label={t('player.replay.skipIdle')}
          />
        </Tooltip>
        <JumpToTime disabled={!ready} duration={state.duration} onJump={(time) => void engine?.seek(time)} />
        <Box sx={{ flex: 1 }} />
        <Typography variant="caption" sx={{ color: 'text.secondary' }} data-testid="replay-phase">
          {state.buffering && state.status === 'ready'
            ? t('player.replay.buffering')
            : state.ended
              ? t('player.replay.finished')
              : ''}
        </Typography>
      </Stack>
    </Stack>
  );
}

import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_KEYS, readString, writeString } from '../../../lib/storage';
import type { TerminalScale } from '../terminal/terminal-host';

/** The scale this browser chose last ('fit' until one is chosen; anything else stored reads as 'fit'). */
export function usePlayerScale(): [TerminalScale, (scale: TerminalScale) => void] {
  const [scale, setScale] = useState<TerminalScale>(() =>
    readString(STORAGE_KEYS.playerScale) === 'actual' ? 'actual' : 'fit',
  );
  const choose = useCallback((next: TerminalScale) => {
    setScale(next);
    writeString(STORAGE_KEYS.playerScale, next);
  }, []);
  return [scale, choose];
}

/**
 * Fit or Actual size: the whole terminal in view (its text as small as that takes: about 2 px for
 * a 160-column session on a phone), or its text readable with the terminal panning in its box.
 */
export function TerminalScaleToggle({
  value,
  onChange,
}: {
  value: TerminalScale;
  onChange: (scale: TerminalScale) => void;
}) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('player.replay.scaleHint')} describeChild placement="top">
      <ToggleButtonGroup
        size="small"
        exclusive
        value={value}
        aria-label={t('player.replay.scale')}
        onChange={(_event, next: TerminalScale | null) => {
          // A second click on the chosen button would unset it: one of the two is always chosen.
          if (next) onChange(next);
        }}
      >
        <ToggleButton value="fit" sx={{ textTransform: 'none', px: 1.5 }}>
          {t('player.replay.scaleFit')}
        </ToggleButton>
        <ToggleButton value="actual" sx={{ textTransform: 'none', px: 1.5 }}>
          {t('player.replay.scaleActual')}
        </ToggleButton>
      </ToggleButtonGroup>
    </Tooltip>
  );
}

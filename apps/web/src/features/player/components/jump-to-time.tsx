import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseClock } from '../replay/playback-clock';

/** A typed time (1:05:30, 90 or 1h5m) to jump to. */
export function JumpToTime({
  disabled,
  duration,
  onJump,
}: {
  disabled: boolean;
  duration: number;
  onJump: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState(false);
  const submit = () => {
    const seconds = parseClock(text);
    if (seconds === null || seconds > duration + 1) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    onJump(seconds);
  };
  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      sx={{ alignItems: 'flex-start' }}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TextField
        size="small"
        label={t('player.replay.jumpTo')}
        placeholder={t('player.replay.jumpHint')}
        value={text}
        disabled={disabled}
        error={invalid}
        helperText={invalid ? t('player.replay.jumpInvalid') : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setInvalid(false);
        }}
        sx={{ width: 150 }}
        slotProps={{ htmlInput: { dir: 'ltr', 'data-testid': 'jump-input' } }}
      />
      <Button type="submit" variant="outlined" disabled={disabled || text.trim() === ''}>
        {t('player.replay.go')}
      </Button>
    </Stack>
  );
}

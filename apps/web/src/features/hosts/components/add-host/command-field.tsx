import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { CopyButton } from '../../../../components/copy-button';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85rem' };

/**
 * A read-only, monospace, left-to-right field with a Copy button beside it (under it on a narrow
 * screen, so the command keeps the whole width).
 */
export function CommandField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        gap: 1,
        alignItems: { xs: 'flex-end', sm: 'flex-start' },
      }}
    >
      <TextField
        label={label}
        value={value}
        fullWidth
        multiline
        onFocus={(event) => event.target.select()}
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false, dir: 'ltr', style: MONO } }}
      />
      <CopyButton text={value} label={copyLabel} />
    </Box>
  );
}

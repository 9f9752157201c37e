import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { RDP_CLIPBOARD_CHOICES, type RdpClipboard } from '../form/tunnel-form';

/**
 * rdp definitions: the browser desktop's clipboard (issue 18), enforced by the gateway: both ways,
 * into the remote desktop only, out of it only, or off.
 */
export function RdpClipboardField({ value, onChange }: { value: RdpClipboard; onChange: (v: RdpClipboard) => void }) {
  const { t } = useTranslation();
  const labelId = useId();
  const helpId = useId();
  return (
    <FormControl>
      <FormLabel id={labelId}>{t('tunnels.clipboard.label')}</FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        aria-describedby={helpId}
        value={value}
        onChange={(event) => onChange(event.target.value as RdpClipboard)}
      >
        {RDP_CLIPBOARD_CHOICES.map((choice) => (
          <FormControlLabel key={choice} value={choice} control={<Radio />} label={t(`tunnels.clipboard.${choice}`)} />
        ))}
      </RadioGroup>
      <FormHelperText id={helpId} sx={{ mx: 0 }}>
        {t('tunnels.clipboard.help')}
      </FormHelperText>
    </FormControl>
  );
}

import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { UnfilmedRdp } from '../form/tunnel-form';

/**
 * rdp definitions: what happens to a session the host's agent cannot film (capture failed or
 * unsupported, recording off for the host, or an agent too old to say): refuse the connection, or
 * allow it, marked "not filmed" in Sessions and the audit trail.
 */
export function UnfilmedRdpField({ value, onChange }: { value: UnfilmedRdp; onChange: (v: UnfilmedRdp) => void }) {
  const { t } = useTranslation();
  const labelId = useId();
  const helpId = useId();
  return (
    <FormControl>
      <FormLabel id={labelId}>{t('tunnels.unfilmed.label')}</FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        aria-describedby={helpId}
        value={value}
        onChange={(event) => onChange(event.target.value as UnfilmedRdp)}
      >
        <FormControlLabel value="refuse" control={<Radio />} label={t('tunnels.unfilmed.refuse')} />
        <FormControlLabel value="allow" control={<Radio />} label={t('tunnels.unfilmed.allow')} />
      </RadioGroup>
      <FormHelperText id={helpId} sx={{ mx: 0 }}>
        {t('tunnels.unfilmed.help')}
      </FormHelperText>
    </FormControl>
  );
}

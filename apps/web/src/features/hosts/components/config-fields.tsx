import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigErrors, ConfigField, ConfigForm } from '../config/config-form';
import type { LogLevel } from '../config/host-config';
import { BITRATE_MBPS, FPS, LOG_LEVELS, bitrateToMbps, defaultConfig, formatWhitelist } from '../config/host-config';

/** Props of the config fields. */
export interface ConfigFieldsProps {
  form: ConfigForm;
  /** The host's OS code: the whitelist default depends on it. */
  os: number;
  errors: ConfigErrors;
  readOnly: boolean;
  onChange: (patch: Partial<ConfigForm>) => void;
}

/** Every host-config field, each with its spec default (§9) in the helper text. */
export function ConfigFields({ form, os, errors, readOnly, onChange }: ConfigFieldsProps) {
  const { t } = useTranslation();
  const switchHelpId = useId();
  const defaults = defaultConfig(os);
  const defaultText = (value: string | number) => t('hosts.config.default', { value });
  const helper = (field: ConfigField, hint: string) => {
    const error = errors[field];
    return error ? t(error.key, error.values) : hint;
  };
  const text = (field: ConfigField) => ({
    value: form[field],
    onChange: (event: { target: { value: string } }) => onChange({ [field]: event.target.value }),
    error: errors[field] !== undefined,
    fullWidth: true,
  });
  const numberInput = (min: number, max: number, step: number | 'any') => ({
    htmlInput: { readOnly, min, max, step, inputMode: 'decimal' as const },
  });

  return (
    <Grid container spacing={2.5} sx={{ pt: 1 }}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          select
          fullWidth
          label={t('hosts.config.loglevel')}
          value={form.loglevel}
          onChange={(event) => onChange({ loglevel: event.target.value as LogLevel })}
          disabled={readOnly}
          helperText={defaultText(defaults.loglevel)}
        >
          {LOG_LEVELS.map((level) => (
            <MenuItem key={level} value={level}>
              {level}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormControlLabel
          control={
            <Switch
              checked={form.recordingEnabled}
              onChange={(event) => onChange({ recordingEnabled: event.target.checked })}
              disabled={readOnly}
              slotProps={{ input: { 'aria-describedby': switchHelpId } }}
            />
          }
          label={t('hosts.config.recording')}
          sx={{ mt: 1 }}
        />
        <FormHelperText id={switchHelpId} sx={{ mx: 0 }}>
          {defaultText(t('common.off'))}
        </FormHelperText>
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <TextField
          {...text('fps')}
          type="number"
          label={t('hosts.config.fps')}
          helperText={helper('fps', defaultText(defaults.recording_fps))}
          slotProps={numberInput(FPS.min, FPS.max, 1)}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <TextField
          {...text('scale')}
          type="number"
          label={t('hosts.config.scale')}
          helperText={helper('scale', defaultText(defaults.recording_scale))}
          slotProps={numberInput(0.05, 1, 'any')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <TextField
          {...text('bitrateMbps')}
          type="number"
          label={t('hosts.config.bitrate')}
          helperText={helper('bitrateMbps', defaultText(bitrateToMbps(defaults.recording_bitrate)))}
          slotProps={{
            ...numberInput(BITRATE_MBPS.min, BITRATE_MBPS.max, 'any'),
            input: { endAdornment: <InputAdornment position="end">{t('hosts.config.mbps')}</InputAdornment> },
          }}
        />
      </Grid>
      <Grid size={12}>
        <TextField
          {...text('whitelist')}
          label={t('hosts.config.whitelist')}
          placeholder="22, 3389"
          helperText={helper(
            'whitelist',
            `${t('hosts.config.whitelistHint')} ${defaultText(
              defaults.whitelist.length > 0 ? formatWhitelist(defaults.whitelist) : t('hosts.config.none'),
            )}`,
          )}
          slotProps={{ htmlInput: { readOnly, spellCheck: false } }}
        />
      </Grid>
    </Grid>
  );
}

import { REGISTRATION_KEY_LIMITS } from '@gatehouse/contracts';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import { useNow } from '../../lib/use-now';
import type { KeyLimitsErrors, KeyLimitsForm, ValidityUnit } from './key-limits';
import { maxValidFor, parseKeyLimits } from './key-limits';
import { intlLocale } from '../../lib/format';

/** Props of the limit fields: the typed values, and the problems to show (after a submit or blur). */
export interface KeyLimitFieldsProps {
  value: KeyLimitsForm;
  onChange: (next: KeyLimitsForm) => void;
  errors: KeyLimitsErrors;
  size?: 'small' | 'medium';
}

/**
 * How long a new registration key works (hours or days, up to a year) and how many agents it may
 * enrol; the helper says when it will stop working. Used wherever a key is generated.
 */
export function KeyLimitFields({ value, onChange, errors, size = 'medium' }: KeyLimitFieldsProps) {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const parsed = parseKeyLimits(value);
  const until =
    'limits' in parsed
      ? formatDateTime(new Date(now + parsed.limits.expires_in_hours * 3_600_000).toISOString())
      : null;
  const maxUses = REGISTRATION_KEY_LIMITS.maxUses.toLocaleString(intlLocale(i18n.language));
  return (
    <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <TextField
        type="number"
        size={size}
        label={t('keyLimits.validFor')}
        value={value.validFor}
        onChange={(event) => onChange({ ...value, validFor: event.target.value })}
        error={errors.validFor !== undefined}
        helperText={
          errors.validFor
            ? t(errors.validFor, { max: maxValidFor(value.unit).toLocaleString(intlLocale(i18n.language)) })
            : until
              ? t('keyLimits.until', { date: until })
              : ' '
        }
        sx={{ flex: '1 1 140px' }}
        slotProps={{ htmlInput: { min: 1, max: maxValidFor(value.unit), step: 1, inputMode: 'numeric' } }}
      />
      <TextField
        select
        size={size}
        label={t('keyLimits.unit')}
        value={value.unit}
        onChange={(event) => onChange({ ...value, unit: event.target.value as ValidityUnit })}
        sx={{ flex: '0 1 120px' }}
      >
        <MenuItem value="hours">{t('keyLimits.units.hours')}</MenuItem>
        <MenuItem value="days">{t('keyLimits.units.days')}</MenuItem>
      </TextField>
      <TextField
        type="number"
        size={size}
        label={t('keyLimits.uses')}
        value={value.uses}
        onChange={(event) => onChange({ ...value, uses: event.target.value })}
        error={errors.uses !== undefined}
        helperText={errors.uses ? t(errors.uses, { max: maxUses }) : t('keyLimits.usesHelper')}
        sx={{ flex: '1 1 160px' }}
        slotProps={{
          htmlInput: { min: 1, max: REGISTRATION_KEY_LIMITS.maxUses, step: 1, inputMode: 'numeric' },
        }}
      />
    </Box>
  );
}

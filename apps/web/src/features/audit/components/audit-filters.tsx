import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { AuditScreenFilters } from '../api/list-audit';
import { useAuditActions } from '../api/list-audit';

/** Props of the filter bar; text fields are as typed (the list follows once typing pauses). */
export interface AuditFiltersBarProps {
  filters: AuditScreenFilters;
  typed: Pick<AuditScreenFilters, 'q' | 'actor' | 'target'>;
  onType: (patch: Partial<Pick<AuditScreenFilters, 'q' | 'actor' | 'target'>>) => void;
  onChange: (patch: Partial<AuditScreenFilters>) => void;
  filtered: boolean;
  onClear: () => void;
}

/** Fields share rows on a desktop and go two by two on a phone. */
const fieldSx = { flex: { xs: '1 1 calc(50% - 6px)', sm: '1 1 170px' }, minWidth: 0, maxWidth: { sm: 240 } };

/** The filters above the trail: text, who, action, outcome, target and a time range. */
export function AuditFiltersBar({ filters, typed, onType, onChange, filtered, onClear }: AuditFiltersBarProps) {
  const { t } = useTranslation();
  const actions = useAuditActions();
  const names = actions.data?.actions ?? [];
  // An action from the URL that the trail does not hold (any more) still shows as chosen.
  const choices = filters.action && !names.includes(filters.action) ? [filters.action, ...names] : names;

  return (
    <Box
      role="search"
      aria-label={t('audit.filters.label')}
      sx={{ display: 'flex', gap: 1.5, mb: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}
    >
      <TextField
        type="search"
        size="small"
        label={t('audit.filters.search')}
        placeholder={t('audit.filters.searchPlaceholder')}
        value={typed.q}
        onChange={(event) => onType({ q: event.target.value })}
        sx={{ flex: { xs: '1 1 100%', sm: '2 1 240px' }, maxWidth: { sm: 360 } }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchOutlined fontSize="small" aria-hidden />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        size="small"
        label={t('audit.filters.actor')}
        value={typed.actor}
        onChange={(event) => onType({ actor: event.target.value })}
        sx={fieldSx}
      />
      <TextField
        select
        size="small"
        label={t('audit.filters.action')}
        value={filters.action}
        onChange={(event) => onChange({ action: event.target.value })}
        sx={fieldSx}
      >
        <MenuItem value="">{t('audit.filters.anyAction')}</MenuItem>
        {choices.map((name) => (
          <MenuItem key={name} value={name} dir="ltr">
            {name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('audit.filters.outcome')}
        value={filters.outcome}
        onChange={(event) => onChange({ outcome: event.target.value as AuditScreenFilters['outcome'] })}
        sx={fieldSx}
      >
        <MenuItem value="">{t('audit.filters.anyOutcome')}</MenuItem>
        {(['success', 'failure', 'denied'] as const).map((outcome) => (
          <MenuItem key={outcome} value={outcome}>
            {t(`audit.outcome.${outcome}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        label={t('audit.filters.target')}
        value={typed.target}
        onChange={(event) => onType({ target: event.target.value })}
        sx={fieldSx}
      />
      <TextField
        type="datetime-local"
        size="small"
        label={t('audit.filters.from')}
        value={filters.from}
        onChange={(event) => onChange({ from: event.target.value })}
        sx={fieldSx}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: filters.to || undefined } }}
      />
      <TextField
        type="datetime-local"
        size="small"
        label={t('audit.filters.to')}
        value={filters.to}
        onChange={(event) => onChange({ to: event.target.value })}
        sx={fieldSx}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: filters.from || undefined } }}
      />
      {filtered ? (
        <Button startIcon={<FilterAltOffOutlined />} onClick={onClear} sx={{ alignSelf: 'center' }}>
          {t('audit.filters.clear')}
        </Button>
      ) : null}
    </Box>
  );
}

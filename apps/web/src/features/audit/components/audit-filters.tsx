import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { FilterBar } from '../../../components/filter-bar';
import { FilterSelect } from '../../../components/filter-select';
import { SearchField } from '../../../components/search-field';
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
    <FilterBar
      label={t('audit.filters.label')}
      filtered={filtered}
      onClear={onClear}
      clearLabel={t('audit.filters.clear')}
    >
      <SearchField
        label={t('audit.filters.search')}
        placeholder={t('audit.filters.searchPlaceholder')}
        value={typed.q}
        onChange={(q) => onType({ q })}
        sx={{ flex: { xs: '1 1 100%', sm: '2 1 240px' }, maxWidth: { sm: 360 } }}
      />
      <TextField
        size="small"
        label={t('audit.filters.actor')}
        value={typed.actor}
        onChange={(event) => onType({ actor: event.target.value })}
        sx={fieldSx}
      />
      <FilterSelect
        label={t('audit.filters.action')}
        value={filters.action}
        options={[
          { value: '', label: t('audit.filters.anyAction') },
          ...choices.map((name) => ({ value: name, label: name, dir: 'ltr' as const })),
        ]}
        onChange={(action) => onChange({ action })}
        sx={fieldSx}
      />
      <FilterSelect
        label={t('audit.filters.outcome')}
        value={filters.outcome}
        options={[
          { value: '', label: t('audit.filters.anyOutcome') },
          ...(['success', 'failure', 'denied'] as const).map((outcome) => ({
            value: outcome,
            label: t(`audit.outcome.${outcome}`),
          })),
        ]}
        onChange={(outcome) => onChange({ outcome })}
        sx={fieldSx}
      />
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
    </FilterBar>
  );
}

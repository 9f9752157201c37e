import { useTranslation } from 'react-i18next';
import { FilterBar } from '../../../components/filter-bar';
import { FilterSelect } from '../../../components/filter-select';
import { SearchField } from '../../../components/search-field';
import type { SessionFilters } from '../api/list-sessions';
import { useTunnelNames } from '../api/tunnel-names';
import { KIND_FILTERS, type SessionKind } from '../derive';
import { TIME_FILTERS } from '../time-filter';

const KINDS: readonly SessionKind[] = ['ssh', 'rdp', 'generic', 'agent'];

/** Props of the filter bar; `search` is the text as typed (the list uses it once typing pauses). */
export interface SessionFiltersBarProps {
  filters: SessionFilters;
  search: string;
  onSearch: (text: string) => void;
  onChange: (patch: Partial<SessionFilters>) => void;
  filtered: boolean;
  onClear: () => void;
}

/**
 * Selects share a row with the search box on a desktop, each as wide as its chosen words (the row
 * wraps rather than cutting "Live and finished"), and go two by two on a phone.
 */
const selectSx = {
  flex: { xs: '1 1 calc(50% - 6px)', sm: '1 1 auto' },
  minWidth: { xs: 0, sm: 150 },
  maxWidth: { sm: 280 },
};

/** The filters above the list: text, time (spec §3 values), session type, channel kind, live and tunnel. */
export function SessionFiltersBar({ filters, search, onSearch, onChange, filtered, onClear }: SessionFiltersBarProps) {
  const { t } = useTranslation();
  const tunnels = useTunnelNames();
  const longRunning = filters.time === 'LongRunning';
  const names = tunnels.data ?? [];
  // A tunnel from the URL that is not (or no longer) a definition still shows as chosen.
  const tunnelChoices =
    filters.tunnel !== 'all' && !names.includes(filters.tunnel) ? [filters.tunnel, ...names] : names;

  return (
    <FilterBar
      label={t('sessions.filters.label')}
      filtered={filtered}
      onClear={onClear}
      clearLabel={t('sessions.filters.clear')}
    >
      <SearchField
        label={t('sessions.filters.search')}
        placeholder={t('sessions.filters.searchPlaceholder')}
        value={search}
        onChange={onSearch}
        sx={{ flex: { xs: '1 1 100%', sm: '2 1 220px' }, maxWidth: { sm: 340 } }}
      />
      <FilterSelect
        label={t('sessions.filters.time')}
        value={filters.time}
        options={TIME_FILTERS.map((value) => ({
          value,
          label: t(`sessions.time.${value === '-1' ? 'default' : value}`),
        }))}
        onChange={(time) => onChange({ time })}
        helperText={longRunning ? t('sessions.time.longRunningHint') : undefined}
        sx={selectSx}
      />
      <FilterSelect
        label={t('sessions.filters.type')}
        value={filters.type}
        options={[
          { value: 'any', label: t('sessions.filters.anyType') },
          ...KINDS.map((kind) => ({ value: kind, label: t(`sessions.type.${kind}`) })),
        ]}
        onChange={(type) => onChange({ type })}
        sx={selectSx}
      />
      <FilterSelect
        label={t('sessions.filters.kind')}
        value={filters.kind}
        options={[
          { value: 'any', label: t('sessions.filters.anyKind') },
          ...KIND_FILTERS.map((kind) => ({ value: kind, label: t(`sessions.kind.${kind}`) })),
        ]}
        onChange={(kind) => onChange({ kind })}
        sx={selectSx}
      />
      <FilterSelect
        label={t('sessions.filters.live')}
        value={longRunning ? 'live' : filters.live}
        disabled={longRunning}
        options={[
          { value: 'any', label: t('sessions.filters.liveAny') },
          { value: 'live', label: t('sessions.filters.liveOnly') },
          { value: 'finished', label: t('sessions.filters.finishedOnly') },
        ]}
        onChange={(live) => onChange({ live })}
        sx={selectSx}
      />
      <FilterSelect
        label={t('sessions.hold.filter')}
        value={filters.hold}
        options={[
          { value: 'any', label: t('sessions.hold.filterAny') },
          { value: 'held', label: t('sessions.hold.filterHeld') },
          { value: 'not-held', label: t('sessions.hold.filterNotHeld') },
        ]}
        onChange={(hold) => onChange({ hold })}
        sx={selectSx}
      />
      <FilterSelect
        label={t('sessions.filters.tunnel')}
        value={filters.tunnel}
        options={[
          { value: 'all', label: t('sessions.filters.allTunnels') },
          ...tunnelChoices.map((name) => ({ value: name, label: name })),
        ]}
        onChange={(tunnel) => onChange({ tunnel })}
        sx={selectSx}
      />
    </FilterBar>
  );
}

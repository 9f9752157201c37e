import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
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

/** Selects share a row with the search box on a desktop, and go two by two on a phone. */
const selectSx = { flex: { xs: '1 1 calc(50% - 6px)', sm: '1 1 150px' }, minWidth: 0, maxWidth: { sm: 220 } };

/**
 * A select's chosen value as the title of what it shows: a select narrower than its words cuts
 * them with an ellipsis (a phone, a long Arabic value), and the title holds them whole.
 */
function shownWhole(text: string) {
  return { select: { SelectDisplayProps: { title: text } } };
}

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
    <Box
      role="search"
      aria-label={t('sessions.filters.label')}
      sx={{ display: 'flex', gap: 1.5, mb: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}
    >
      <TextField
        type="search"
        size="small"
        label={t('sessions.filters.search')}
        placeholder={t('sessions.filters.searchPlaceholder')}
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        sx={{ flex: { xs: '1 1 100%', sm: '2 1 220px' }, maxWidth: { sm: 340 } }}
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
        select
        size="small"
        label={t('sessions.filters.time')}
        value={filters.time}
        onChange={(event) => onChange({ time: event.target.value as SessionFilters['time'] })}
        helperText={longRunning ? t('sessions.time.longRunningHint') : undefined}
        sx={selectSx}
        slotProps={shownWhole(t(`sessions.time.${filters.time === '-1' ? 'default' : filters.time}`))}
      >
        {TIME_FILTERS.map((value) => (
          <MenuItem key={value} value={value}>
            {t(`sessions.time.${value === '-1' ? 'default' : value}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('sessions.filters.type')}
        value={filters.type}
        onChange={(event) => onChange({ type: event.target.value as SessionFilters['type'] })}
        sx={selectSx}
        slotProps={shownWhole(
          filters.type === 'any' ? t('sessions.filters.anyType') : t(`sessions.type.${filters.type}`),
        )}
      >
        <MenuItem value="any">{t('sessions.filters.anyType')}</MenuItem>
        {KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {t(`sessions.type.${kind}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('sessions.filters.kind')}
        value={filters.kind}
        onChange={(event) => onChange({ kind: event.target.value as SessionFilters['kind'] })}
        sx={selectSx}
        slotProps={shownWhole(
          filters.kind === 'any' ? t('sessions.filters.anyKind') : t(`sessions.kind.${filters.kind}`),
        )}
      >
        <MenuItem value="any">{t('sessions.filters.anyKind')}</MenuItem>
        {KIND_FILTERS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {t(`sessions.kind.${kind}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('sessions.filters.live')}
        value={longRunning ? 'live' : filters.live}
        disabled={longRunning}
        onChange={(event) => onChange({ live: event.target.value as SessionFilters['live'] })}
        sx={selectSx}
        slotProps={shownWhole(
          t(
            `sessions.filters.${{ any: 'liveAny', live: 'liveOnly', finished: 'finishedOnly' }[longRunning ? 'live' : filters.live]}`,
          ),
        )}
      >
        <MenuItem value="any">{t('sessions.filters.liveAny')}</MenuItem>
        <MenuItem value="live">{t('sessions.filters.liveOnly')}</MenuItem>
        <MenuItem value="finished">{t('sessions.filters.finishedOnly')}</MenuItem>
      </TextField>
      <TextField
        select
        size="small"
        label={t('sessions.hold.filter')}
        value={filters.hold}
        onChange={(event) => onChange({ hold: event.target.value as SessionFilters['hold'] })}
        sx={selectSx}
        slotProps={shownWhole(
          t(`sessions.hold.${{ any: 'filterAny', held: 'filterHeld', 'not-held': 'filterNotHeld' }[filters.hold]}`),
        )}
      >
        <MenuItem value="any">{t('sessions.hold.filterAny')}</MenuItem>
        <MenuItem value="held">{t('sessions.hold.filterHeld')}</MenuItem>
        <MenuItem value="not-held">{t('sessions.hold.filterNotHeld')}</MenuItem>
      </TextField>
      <TextField
        select
        size="small"
        label={t('sessions.filters.tunnel')}
        value={filters.tunnel}
        onChange={(event) => onChange({ tunnel: event.target.value })}
        sx={selectSx}
        slotProps={shownWhole(filters.tunnel === 'all' ? t('sessions.filters.allTunnels') : filters.tunnel)}
      >
        <MenuItem value="all">{t('sessions.filters.allTunnels')}</MenuItem>
        {tunnelChoices.map((name) => (
          <MenuItem key={name} value={name}>
            {name}
          </MenuItem>
        ))}
      </TextField>
      {filtered ? (
        <Button startIcon={<FilterAltOffOutlined />} onClick={onClear} sx={{ mt: 0.25, flexShrink: 0 }}>
          {t('sessions.filters.clear')}
        </Button>
      ) : null}
    </Box>
  );
}

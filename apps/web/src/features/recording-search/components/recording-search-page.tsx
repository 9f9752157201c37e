import type { RecordingTextKind } from '@gatehouse/contracts';
import { RECORDING_TEXT_KINDS } from '@gatehouse/contracts';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTheme } from '@mui/material/styles';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { useErrorText } from '../../../components/use-error-text';
import { MIN_QUERY, type SearchRange, useRecordingSearch } from '../api/search-recordings';
import { KIND_COLORS, SearchResults } from './search-results';

const RANGES: readonly SearchRange[] = ['any', '1', '7', '30'];

/**
 * The player's route at a moment of a recording (features/player reads view and t): just after
 * the hit's time, so the line it found stands on the screen.
 */
export function playerAt(id: string, t: number): string {
  return `/recordings/${id}?view=replay&t=${Math.ceil((Math.max(0, t) + 0.05) * 10) / 10}`;
}

function readKinds(value: string | null): RecordingTextKind[] {
  return (value ?? '')
    .split(',')
    .filter((k): k is RecordingTextKind => (RECORDING_TEXT_KINDS as readonly string[]).includes(k));
}

/**
 * /recordings/search: which sessions printed, ran, typed or transferred a text, across every
 * recording the user may see. The text, kinds and range live in the URL, so Back returns to them.
 * Keyboard: / focuses the search field, Enter searches at once, Tab reaches each hit.
 */
export function RecordingSearchPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const urlQ = params.get('q') ?? '';
  const kinds = readKinds(params.get('kind'));
  const range = (RANGES as readonly string[]).includes(params.get('range') ?? '')
    ? (params.get('range') as SearchRange)
    : 'any';
  const [text, setText] = useState(urlQ);
  const settled = useDebouncedValue(text.trim(), 400);
  const field = useRef<HTMLInputElement>(null);

  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(patch)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  // The typed text reaches the URL once typing pauses (Enter sends it at once).
  useEffect(() => {
    if (settled !== urlQ && (settled.length >= MIN_QUERY || settled === '')) update({ q: settled || null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a settled change writes the URL
  }, [settled]);
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== '/' || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      event.preventDefault();
      field.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const search = useRecordingSearch({ q: urlQ, kinds, range });
  const sessions = search.data?.pages.flatMap((page) => page.sessions) ?? [];
  const tooShort = urlQ.length < MIN_QUERY;

  const onEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    const q = text.trim();
    if (q.length >= MIN_QUERY) update({ q });
  };
  const toggleKind = (kind: RecordingTextKind) => {
    const next = kinds.includes(kind) ? kinds.filter((k) => k !== kind) : [...kinds, kind];
    update({ kind: next.join(',') || null });
  };

  return (
    <Box>
      <PageHeader
        title={t('recordingSearch.title')}
        subtitle={t('recordingSearch.subtitle')}
        actions={
          <Button
            component={RouterLink}
            to="/recordings"
            startIcon={<ArrowBackOutlined sx={{ transform: theme.direction === 'rtl' ? 'scaleX(-1)' : undefined }} />}
          >
            {t('recordingSearch.back')}
          </Button>
        }
      />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 1.5 }} useFlexGap>
        <TextField
          inputRef={field}
          autoFocus
          fullWidth
          label={t('recordingSearch.field')}
          placeholder={t('recordingSearch.placeholder')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onEnter}
          helperText={
            text.trim().length > 0 && text.trim().length < MIN_QUERY
              ? t('recordingSearch.tooShort', { count: MIN_QUERY })
              : t('recordingSearch.hint')
          }
          slotProps={{
            htmlInput: { maxLength: 200, 'aria-keyshortcuts': '/' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <ManageSearchOutlined aria-hidden />
                </InputAdornment>
              ),
              endAdornment: search.isFetching ? (
                <InputAdornment position="end">
                  <CircularProgress size={18} aria-label={t('common.loading')} />
                </InputAdornment>
              ) : null,
            },
          }}
        />
        <TextField
          select
          label={t('recordingSearch.range.label')}
          value={range}
          onChange={(event) => update({ range: event.target.value === 'any' ? null : event.target.value })}
          sx={{ minWidth: 200 }}
        >
          {RANGES.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`recordingSearch.range.${value === 'any' ? 'any' : `days${value}`}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center' }}
        role="group"
        aria-label={t('recordingSearch.kinds')}
      >
        {RECORDING_TEXT_KINDS.map((kind) => (
          <Chip
            key={kind}
            label={t(`recordingSearch.kind.${kind}`)}
            color={KIND_COLORS[kind]}
            variant={kinds.includes(kind) ? 'filled' : 'outlined'}
            aria-pressed={kinds.includes(kind)}
            onClick={() => toggleKind(kind)}
          />
        ))}
        <Box component="span" sx={{ color: 'text.secondary', typography: 'caption' }}>
          {kinds.length === 0 ? t('recordingSearch.allKinds') : null}
        </Box>
      </Stack>
      {search.isError ? (
        <Alert
          severity="error"
          variant="outlined"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void search.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('recordingSearch.failed', { message: errorText(search.error) })}
        </Alert>
      ) : null}
      {tooShort ? (
        <EmptyState
          icon={ManageSearchOutlined}
          title={t('recordingSearch.start.title')}
          hint={t('recordingSearch.start.hint')}
        />
      ) : search.isSuccess && sessions.length === 0 ? (
        <EmptyState
          icon={SearchOffOutlined}
          title={t('recordingSearch.none.title', { q: urlQ })}
          hint={t('recordingSearch.none.hint')}
        />
      ) : (
        <SearchResults sessions={sessions} onOpen={(id, at) => void navigate(playerAt(id, at))} />
      )}
      {search.hasNextPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Button variant="outlined" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
            {t('recordingSearch.more')}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}

export default RecordingSearchPage;

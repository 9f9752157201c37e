import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Alert from '@mui/material/Alert';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HighlightedSnippet } from '../../../components/highlighted-snippet';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { type SearchHit, useRecordingSearch } from '../api/search';
import { formatClock } from '../replay/playback-clock';

/** Finds text in the recording's output and lists each place with a jump to it. */
export function ReplaySearch({ recordingId, onJump }: { recordingId: string; onJump: (hit: SearchHit) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), 300);
  const search = useRecordingSearch(recordingId, q);
  const hits = search.data?.hits ?? [];
  return (
    <Stack spacing={1}>
      <TextField
        size="small"
        label={t('player.search.label')}
        value={text}
        onChange={(event) => setText(event.target.value.slice(0, 200))}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchOutlined fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      {search.isFetching ? <LinearProgress /> : null}
      {search.isError ? (
        <Alert severity="error">{t('player.search.failed', { message: search.error.message })}</Alert>
      ) : null}
      {search.data ? (
        <Typography variant="caption" sx={{ color: 'text.secondary' }} role="status">
          {hits.length === 0 ? t('player.search.none') : t('player.search.hits', { count: hits.length })}
          {search.data.truncated ? ` · ${t('player.search.truncated', { count: hits.length })}` : ''}
        </Typography>
      ) : null}
      {hits.length > 0 ? (
        <List dense aria-label={t('player.search.label')} sx={{ maxHeight: 260, overflowY: 'auto' }}>
          {hits.map((hit) => (
            <ListItemButton
              key={`${String(hit.offset)}-${String(hit.t)}`}
              onClick={() => onJump(hit)}
              aria-label={t('player.search.jump', { time: formatClock(hit.t) })}
            >
              <ListItemText
                primary={
                  <HighlightedSnippet
                    text={hit.excerpt}
                    matchStart={hit.match_start}
                    matchLength={hit.match_length}
                    clippedStart={hit.clipped_start}
                    clippedEnd={hit.clipped_end}
                  />
                }
                secondary={formatClock(hit.t)}
              />
            </ListItemButton>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}

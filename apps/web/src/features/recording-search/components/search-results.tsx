import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { HighlightedSnippet } from '../../../components/highlighted-snippet';
import { formatDateTime } from '../../../lib/dates';
import { formatClock } from '../../../lib/format';
import type { SearchHit, SearchSession } from '../api/search-recordings';

/** Colours of the kind chips: one per kind of text. */
export const KIND_COLORS = {
  output: 'default',
  command: 'primary',
  input: 'secondary',
  file: 'warning',
} as const;

/** Seconds from a session's start as a clock (m:ss, h:mm:ss): the console's one clock format. */
export const clock = formatClock;

/** A hit's line with the match marked; the text is rendered as text, never as HTML. */
export function HitSnippet({ hit }: { hit: SearchHit }) {
  return (
    <HighlightedSnippet
      text={hit.snippet}
      matchStart={hit.match_start}
      matchLength={hit.match_length}
      clippedStart={hit.clipped_start}
      clippedEnd={hit.clipped_end}
    />
  );
}

/** One session with its hits; choosing a hit opens the player at its moment. */
function SessionResult({ session, onOpen }: { session: SearchSession; onOpen: (id: string, t: number) => void }) {
  const { t } = useTranslation();
  const r = session.recording;
  const more = session.hit_count - session.hits.length;
  return (
    <Paper variant="outlined" component="section" aria-label={t('recordingSearch.session', { host: r.host.hostname })}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ px: 2, pt: 1.5, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {r.host.hostname}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('recordingSearch.sessionFacts', {
            user: r.user.email,
            start: formatDateTime(r.started_on),
          })}
        </Typography>
        <Box sx={{ flex: 1 }} />
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="hit-count">
          {session.hit_count >= 1000
            ? t('recordingSearch.hitsMany')
            : t('recordingSearch.hits', { count: session.hit_count })}
        </Typography>
      </Stack>
      <List dense disablePadding>
        {session.hits.map((hit, index) => (
          <ListItemButton
            key={`${hit.t}-${index}`}
            onClick={() => onOpen(r.id, hit.t)}
            aria-label={t('recordingSearch.openAt', {
              host: r.host.hostname,
              time: clock(hit.t),
            })}
            sx={{ gap: 1.5, alignItems: 'baseline' }}
          >
            <Typography
              variant="caption"
              sx={{ color: 'text.secondary', minWidth: 56, fontVariantNumeric: 'tabular-nums' }}
            >
              {clock(hit.t)}
            </Typography>
            <Chip
              size="small"
              variant="outlined"
              color={KIND_COLORS[hit.kind]}
              label={t(`recordingSearch.kind.${hit.kind}`)}
              sx={{ minWidth: 72 }}
            />
            <HitSnippet hit={hit} />
          </ListItemButton>
        ))}
      </List>
      {more > 0 || session.truncated ? (
        <Typography variant="caption" component="p" sx={{ px: 2, pb: 1, color: 'text.secondary' }}>
          {more > 0 ? t('recordingSearch.moreHits', { count: more }) : null}
          {more > 0 && session.truncated ? ' ' : null}
          {session.truncated ? t('recordingSearch.truncated') : null}
        </Typography>
      ) : null}
    </Paper>
  );
}

/** Sessions with hits, newest first. */
export function SearchResults({
  sessions,
  onOpen,
}: {
  sessions: readonly SearchSession[];
  onOpen: (id: string, t: number) => void;
}) {
  return (
    <Stack spacing={1.5} data-testid="search-results">
      {sessions.map((session) => (
        <SessionResult key={session.recording.id} session={session} onOpen={onOpen} />
      ))}
    </Stack>
  );
}

import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { endReasonText } from '../../../components/end-reason';
import { formatDateTime } from '../../../lib/dates';
import { formatDuration } from '../../../lib/format';
import type { RecordingDetail } from '../api/recording-detail';

/**
 * One fact: its label and value on one line, cut with an ellipsis when long (an email must not run
 * over the next fact), the whole value in the tooltip.
 */
function Fact({ label, value, ltr = false }: { label: string; value: string; ltr?: boolean }) {
  return (
    <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'baseline', minWidth: 0, maxWidth: { xs: '100%', sm: 340 } }}>
      <Typography component="dt" variant="caption" sx={{ color: 'text.secondary', flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        title={value}
        dir={ltr ? 'ltr' : undefined}
        sx={{ m: 0, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/** Host, user, times and how the session ended, above the player. */
export function RecordingFacts({ recording }: { recording: RecordingDetail }) {
  const { t, i18n } = useTranslation();
  const live = recording.ended_on === null;
  const reason = recording.end_reason
    ? `${endReasonText(recording.end_reason, t)}${recording.terminated_by ? ` · ${t('player.page.terminatedBy', { email: recording.terminated_by })}` : ''}`
    : null;
  // One or two lines, not a grid of cards: the player and its controls stay above the fold.
  return (
    <Box
      component="dl"
      data-testid="recording-facts"
      sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5, m: 0 }}
    >
      <Fact label={t('player.page.host')} value={recording.host.hostname} ltr />
      <Fact label={t('player.page.user')} value={recording.user.email} ltr />
      <Fact label={t('player.page.type')} value={recording.type.toUpperCase()} />
      <Fact label={t('player.page.started')} value={formatDateTime(recording.started_on)} />
      <Fact label={t('player.page.ended')} value={live ? t('player.live.live') : formatDateTime(recording.ended_on)} />
      <Fact label={t('player.page.duration')} value={formatDuration(recording.duration_ms, i18n.language, live)} />
      {recording.tunnel ? <Fact label={t('player.page.tunnel')} value={recording.tunnel} /> : null}
      {reason ? <Fact label={t('player.page.endReason')} value={reason} /> : null}
    </Box>
  );
}

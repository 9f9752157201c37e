import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { endReasonText } from '../../../components/end-reason';
import { formatDateTime } from '../../../lib/dates';
import { formatDuration } from '../../../lib/format';
import type { RecordingDetail } from '../api/recording-detail';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="body2">{children}</Typography>
    </Box>
  );
}

/** Host, user, times and how the session ended, above the player. */
export function RecordingFacts({ recording }: { recording: RecordingDetail }) {
  const { t, i18n } = useTranslation();
  const live = recording.ended_on === null;
  return (
    <Box
      data-testid="recording-facts"
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))' }}
    >
      <Fact label={t('player.page.host')}>{recording.host.hostname}</Fact>
      <Fact label={t('player.page.user')}>{recording.user.email}</Fact>
      <Fact label={t('player.page.type')}>{recording.type.toUpperCase()}</Fact>
      <Fact label={t('player.page.started')}>{formatDateTime(recording.started_on)}</Fact>
      <Fact label={t('player.page.ended')}>{live ? t('player.live.live') : formatDateTime(recording.ended_on)}</Fact>
      <Fact label={t('player.page.duration')}>{formatDuration(recording.duration_ms, i18n.language, live)}</Fact>
      {recording.tunnel ? <Fact label={t('player.page.tunnel')}>{recording.tunnel}</Fact> : null}
      {recording.end_reason ? (
        <Fact label={t('player.page.endReason')}>
          {endReasonText(recording.end_reason, t)}
          {recording.terminated_by ? ` · ${t('player.page.terminatedBy', { email: recording.terminated_by })}` : ''}
        </Fact>
      ) : null}
    </Box>
  );
}

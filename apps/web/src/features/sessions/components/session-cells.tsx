import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { SessionKind, SessionRow } from '../derive';
import { formatDuration } from '../../../lib/format';
import { durationOf, isLive, sessionType } from '../derive';
import { useNow } from './use-now';
import { EllipsisText } from '../../../components/ellipsis-text';

/** Status (spec §3): a red Live chip, or a quiet Finished one. */
export function StatusChip({ live }: { live: boolean }) {
  const { t } = useTranslation();
  return live ? (
    <Chip
      size="small"
      color="error"
      icon={<FiberManualRecord sx={{ fontSize: 12 }} aria-hidden />}
      label={t('sessions.status.live')}
    />
  ) : (
    <Chip size="small" variant="outlined" label={t('sessions.status.finished')} />
  );
}

/** SessionType in words: SSH, RDP, Generic or Agent. */
export function TypeLabel({ kind }: { kind: SessionKind }) {
  const { t } = useTranslation();
  return <>{t(`sessions.type.${kind}`)}</>;
}

/**
 * What an SSH session's first channel was: shell, exec (with its command), sftp, scp (with its
 * command) or forward; for rdp, a browser desktop filmed at the gateway or a native RDP client
 * (through a tunnel); '-' for other sessions, and SSH ones that began before kinds were recorded.
 */
export function ChannelKindLabel({
  row,
  whole = false,
}: {
  row: Pick<SessionRow, 'kind' | 'command' | 'type' | 'has_video'>;
  /** The whole command under the kind, wrapping (a session's facts); otherwise one line, cut with its title. */
  whole?: boolean;
}) {
  const { t } = useTranslation();
  if (!row.kind) return sessionType(row) === 'rdp' ? <>{t('sessions.kind.rdpClient')}</> : <>-</>;
  const label = t(`sessions.kind.${row.kind}`);
  if (!row.command) return <>{label}</>;
  if (whole)
    return (
      <>
        <Box component="span" sx={{ display: 'block' }}>
          {label}
        </Box>
        <Box
          component="code"
          dir="ltr"
          sx={{ display: 'block', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: '0.8rem', mt: 0.25 }}
        >
          {row.command}
        </Box>
      </>
    );
  return (
    <Box component="span" sx={{ display: 'flex', gap: 0.75, minWidth: 0, alignItems: 'baseline' }}>
      {/* The kind's word stays whole; only the command gives way. */}
      <Box component="span" sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
        {label}
      </Box>
      <Box
        component="code"
        dir="ltr"
        title={row.command}
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0, fontSize: '0.8rem' }}
      >
        {row.command}
      </Box>
    </Box>
  );
}

/** A session that forwarded ports (ssh -L): a small chip naming its targets (host:port). */
export function ForwardChip({ forwards }: { forwards: readonly string[] }) {
  const { t } = useTranslation();
  if (forwards.length === 0) return null;
  const title = t('sessions.forward.title', { targets: forwards.join(', ') });
  return (
    <Chip
      size="small"
      variant="outlined"
      label={t('sessions.forward.label')}
      title={title}
      aria-label={title}
      sx={{ ml: 1 }}
    />
  );
}

/** The session's length in the console's one duration format (lib/format); a live session's ticks every second, with '+'. */
export function DurationText({ row }: { row: Pick<SessionRow, 'started_on' | 'ended_on'> }) {
  const { i18n } = useTranslation();
  const live = isLive(row);
  const now = useNow(live);
  const text = formatDuration(durationOf(row, now), i18n.language, live);
  // A long one ('+1 hr 19 min 37 sec') is cut by the column at 1440 px: the title holds it whole.
  return (
    <Box component="span" title={text} sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {text}
    </Box>
  );
}

/** Host (with the Live chip), user and duration in one cell, for the phone layout of the list. */
export function SessionSummary({ row }: { row: SessionRow }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minWidth: 0, lineHeight: 1.35, py: 0.75 }}>
      <Box component="span" sx={{ fontWeight: 600, display: 'flex', minWidth: 0, gap: 1, alignItems: 'center' }}>
        <LtrText text={row.host.hostname} />
        {isLive(row) ? <StatusChip live /> : null}
      </Box>
      <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.8rem', display: 'flex', minWidth: 0 }}>
        <LtrText text={row.user.email} />
      </Box>
      <Box component="span" sx={{ fontSize: '0.8rem' }}>
        <DurationText row={row} />
      </Box>
    </Box>
  );
}

/** An email or hostname: read left to right in every language, cut with an ellipsis, whole in the tooltip. */
export function LtrText({ text }: { text: string }) {
  return <EllipsisText text={text} ltr />;
}

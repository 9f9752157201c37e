import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailText } from '../../../components/email-text';
import { endReasonText } from '../../../components/end-reason';
import { formatDateTime } from '../../../lib/dates';
import { LegalHoldChip } from './legal-hold-chip';
import type { SessionDetail } from '../api/session-detail';
import type { SessionRow } from '../derive';
import { formatBytes } from '../../../lib/format';
import { isLive, sessionType } from '../derive';
import { ChannelKindLabel, DurationText, StatusChip, TypeLabel } from './session-cells';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}

/** What is known of a session, as a definition list: the row's fields first, the detail's once loaded. */
export function SessionFacts({ row, detail }: { row: SessionRow; detail: SessionDetail | undefined }) {
  const { t, i18n } = useTranslation();
  const reason = row.end_reason;
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'minmax(110px, auto) 1fr', columnGap: 2, rowGap: 1.25, m: 0 }}
    >
      <Fact label={t('sessions.columns.status')}>
        <StatusChip live={isLive(row)} />
        <LegalHoldChip hold={row.legal_hold} />
      </Fact>
      {row.legal_hold?.held ? (
        <>
          <Fact label={t('sessions.hold.heldBy')}>
            <span dir="ltr">{row.legal_hold.by ?? '-'}</span>
          </Fact>
          <Fact label={t('sessions.hold.heldSince')}>{formatDateTime(row.legal_hold.at)}</Fact>
          <Fact label={t('sessions.hold.heldReason')}>
            <Box component="span" dir="auto" sx={{ whiteSpace: 'pre-wrap' }}>
              {row.legal_hold.reason ?? '-'}
            </Box>
          </Fact>
        </>
      ) : null}
      <Fact label={t('sessions.columns.type')}>
        <TypeLabel kind={sessionType(row)} />
      </Fact>
      {row.kind || sessionType(row) === 'rdp' ? (
        <Fact label={t('sessions.columns.kind')}>
          <ChannelKindLabel row={row} whole />
        </Fact>
      ) : null}
      <Fact label={t('sessions.columns.hostname')}>
        <span dir="ltr">{row.host.hostname}</span>
      </Fact>
      <Fact label={t('sessions.columns.user')}>
        <span dir="ltr">
          <EmailText>{row.user.email}</EmailText>
        </span>
      </Fact>
      <Fact label={t('sessions.columns.tunnel')}>{row.tunnel ?? '-'}</Fact>
      {row.forwards.length > 0 ? (
        <Fact label={t('sessions.detail.forwards')}>
          <span dir="ltr">{row.forwards.join(', ')}</span>
        </Fact>
      ) : null}
      <Fact label={t('sessions.columns.start')}>{formatDateTime(row.started_on)}</Fact>
      <Fact label={t('sessions.columns.end')}>{formatDateTime(row.ended_on)}</Fact>
      <Fact label={t('sessions.columns.duration')}>
        <DurationText row={row} />
      </Fact>
      {reason ? <Fact label={t('sessions.detail.endReason')}>{endReasonText(reason, t)}</Fact> : null}
      {row.terminated_by ? (
        <Fact label={t('sessions.detail.terminatedBy')}>
          <span dir="ltr">{row.terminated_by}</span>
        </Fact>
      ) : null}
      {detail ? (
        <>
          {detail.width && detail.height ? (
            <Fact label={t('sessions.detail.terminalSize')}>
              {t('sessions.detail.terminalSizeValue', { columns: detail.width, rows: detail.height })}
            </Fact>
          ) : null}
          <Fact label={t('sessions.detail.recordingSize')}>{formatBytes(detail.bytes, t, i18n.language)}</Fact>
          {detail.video_bytes > 0 ? (
            <Fact label={t('sessions.detail.videoSize')}>{formatBytes(detail.video_bytes, t, i18n.language)}</Fact>
          ) : null}
          <Fact label={t('sessions.detail.signed')}>
            {detail.manifest_signed ? t('sessions.detail.signedYes') : t('sessions.detail.signedNo')}
          </Fact>
        </>
      ) : null}
      <Fact label={t('sessions.detail.id')}>
        <Box component="span" dir="ltr" sx={{ fontFamily: 'monospace', fontSize: '0.8rem' }}>
          {row.id}
        </Box>
      </Fact>
    </Box>
  );
}

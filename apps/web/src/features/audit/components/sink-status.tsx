import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AuditStreaming } from '../api/streaming';
import { formatAuditTime } from './audit-time';

/** A sink's delivery as the shared state says: last delivery, backlog, last error and the next try. */
export function SinkStatus({ status, enabled }: { status: AuditStreaming['status']['syslog']; enabled: boolean }) {
  const { t } = useTranslation();
  const failing = status.last_error !== null && status.next_attempt_at !== null;
  return (
    <Box role="status" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="body2">
        {status.last_delivery_at
          ? t('audit.streaming.lastDelivery', { time: formatAuditTime(status.last_delivery_at) })
          : t('audit.streaming.neverDelivered')}
        {enabled ? ` · ${t('audit.streaming.pending', { count: status.pending })}` : ''}
      </Typography>
      {status.last_error ? (
        <Alert severity={failing ? 'warning' : 'info'} variant="outlined">
          {t('audit.streaming.lastError', {
            time: status.last_error_at ? formatAuditTime(status.last_error_at) : '-',
            message: status.last_error,
          })}
          {status.next_attempt_at
            ? ` ${t('audit.streaming.nextAttempt', { time: formatAuditTime(status.next_attempt_at) })}`
            : ''}
        </Alert>
      ) : null}
    </Box>
  );
}

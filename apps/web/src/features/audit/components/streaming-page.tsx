import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { isAdmin } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import { useAuditStreaming } from '../api/streaming';
import { AuditTabs } from './audit-tabs';
import { StreamingForm } from './streaming-form';

/** /audit/streaming: where the trail is streamed (syslog, signed webhook), administrators only. */
export function StreamingPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const admin = isAdmin(user);
  const streaming = useAuditStreaming(admin);
  return (
    <Box>
      <PageHeader title={t('pages.audit')} subtitle={t('audit.streaming.subtitle')} />
      <AuditTabs current="streaming" />
      {!admin ? (
        <Alert severity="info" variant="outlined">
          {t('audit.streaming.adminsOnly')}
        </Alert>
      ) : streaming.isError ? (
        <ErrorState error={streaming.error} onRetry={() => void streaming.refetch()} />
      ) : streaming.data ? (
        // Keyed by the saved settings' version, so a save (or a change elsewhere) refills the form.
        <StreamingForm key={JSON.stringify([streaming.data.syslog, streaming.data.webhook])} current={streaming.data} />
      ) : (
        <LinearProgress aria-label={t('common.loading')} />
      )}
    </Box>
  );
}

import MailOutlined from '@mui/icons-material/MailOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { EmptyState } from '../../../components/data-table/table-states';
import type { OutboxEntry } from '../api/list-outbox';
import { useOutbox } from '../api/list-outbox';
import { DeleteOutboxDialog } from './delete-outbox-dialog';
import { useOutboxColumns } from './outbox-columns';
import { OutboxMessageDialog } from './outbox-message-dialog';
import { SectionCard } from './section-card';
import { intlLocale } from '../../../lib/format';

const searchTexts = (entry: OutboxEntry) => [entry.to, entry.subject, entry.from];
const entryId = (entry: OutboxEntry) => entry.id;
const NEWEST_FIRST = [{ field: 'created_at', sort: 'desc' as const }];

/**
 * The mail outbox (admin role only): mail the server kept instead of sending, because no SMTP
 * server was set. Read a message in a dialog, delete it after a confirmation. Messages may carry
 * password-reset links, so the screen says to treat them as secrets.
 */
export function OutboxSection() {
  const { t, i18n } = useTranslation();
  const outbox = useOutbox(true);
  const [reading, setReading] = useState<OutboxEntry | null>(null);
  const [deleting, setDeleting] = useState<OutboxEntry | null>(null);
  const onRead = useCallback((entry: OutboxEntry) => setReading(entry), []);
  const onDelete = useCallback((entry: OutboxEntry) => setDeleting(entry), []);
  const columns = useOutboxColumns({ onRead, onDelete });
  const smtp = outbox.data?.smtp_configured;
  const shown = outbox.data?.messages.length ?? 0;
  const total = outbox.data?.total ?? 0;
  const number = (n: number) => n.toLocaleString(intlLocale(i18n.language));

  return (
    <SectionCard icon={MailOutlined} title={t('settings.outbox.title')} subtitle={t('settings.outbox.subtitle')}>
      <Stack spacing={2.5}>
        {smtp === undefined ? null : (
          <Alert
            severity={smtp ? 'info' : 'warning'}
            variant="outlined"
            action={
              smtp ? undefined : (
                <Button component={RouterLink} to="?section=general" color="inherit" size="small">
                  {t('settings.outbox.setUpSmtp')}
                </Button>
              )
            }
          >
            {smtp ? t('settings.outbox.explainSmtp') : t('settings.outbox.explain')}
          </Alert>
        )}
        <DataTable<OutboxEntry>
          label={t('settings.outbox.title')}
          searchLabel={t('settings.outbox.search')}
          rows={outbox.data?.messages}
          columns={columns}
          getRowId={entryId}
          searchTexts={searchTexts}
          loading={outbox.isLoading}
          error={outbox.error}
          onRetry={() => void outbox.refetch()}
          onOpenRow={onRead}
          initialSort={NEWEST_FIRST}
          toolbar={
            total > shown ? (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('settings.outbox.newestOf', { shown: number(shown), total: number(total) })}
              </Typography>
            ) : null
          }
          empty={
            <EmptyState
              icon={MarkEmailReadOutlined}
              title={t('settings.outbox.empty.title')}
              hint={smtp ? t('settings.outbox.empty.hintSmtp') : t('settings.outbox.empty.hint')}
            />
          }
        />
      </Stack>
      <OutboxMessageDialog entry={reading} onClose={() => setReading(null)} onDelete={onDelete} />
      <DeleteOutboxDialog
        entry={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          if (reading?.id === deleting?.id) setReading(null);
          setDeleting(null);
        }}
      />
    </SectionCard>
  );
}

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/data-table/table-states';
import { formatDateTime } from '../../../lib/dates';
import { useOutboxMessage } from '../api/get-outbox-message';
import type { OutboxEntry } from '../api/list-outbox';
import { FactList } from './fact-list';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85rem' };

/**
 * One message of the outbox: sender, recipient, when, and its text (fetched when opened). The
 * text may carry a reset link, so the dialog says to treat it as a secret.
 */
export function OutboxMessageDialog(props: {
  entry: OutboxEntry | null;
  onClose: () => void;
  onDelete: (entry: OutboxEntry) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const { entry } = props;
  const message = useOutboxMessage(entry?.id ?? null);
  return (
    <Dialog open={entry !== null} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{entry?.subject}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {entry ? (
            <FactList
              facts={[
                { label: t('settings.outbox.from'), value: entry.from },
                { label: t('settings.outbox.columns.to'), value: entry.to },
                { label: t('settings.outbox.columns.when'), value: formatDateTime(entry.created_at) },
              ]}
            />
          ) : null}
          <Alert severity="warning" variant="outlined">
            {t('settings.outbox.secret')}
          </Alert>
          {message.isPending ? (
            <Skeleton variant="rounded" height={160} aria-label={t('common.loading')} />
          ) : message.isError ? (
            <ErrorState error={message.error} onRetry={() => void message.refetch()} />
          ) : (
            <Box
              component="pre"
              aria-label={t('settings.outbox.text')}
              sx={{
                ...MONO,
                m: 0,
                p: 2,
                borderRadius: 1,
                bgcolor: 'action.hover',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
              }}
            >
              {message.data.text}
            </Box>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="error" onClick={() => entry && props.onDelete(entry)}>
          {t('common.delete')}
        </Button>
        <Button variant="contained" onClick={props.onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

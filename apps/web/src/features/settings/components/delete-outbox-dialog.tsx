import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useDeleteOutboxMessage } from '../api/delete-outbox-message';
import type { OutboxEntry } from '../api/list-outbox';

/** Asks before deleting a kept message, naming its subject and recipient; `onDeleted` follows success. */
export function DeleteOutboxDialog(props: { entry: OutboxEntry | null; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useDeleteOutboxMessage();
  const { entry } = props;
  const confirm = () => {
    if (!entry) return;
    mutation.mutate(entry.id, {
      onSuccess: () => {
        snackbar.success(t('settings.outbox.deleted'));
        props.onDeleted();
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };
  return (
    <ConfirmDialog
      open={entry !== null}
      title={t('settings.outbox.deleteDialog.title')}
      message={t('settings.outbox.deleteDialog.message', { subject: entry?.subject ?? '', to: entry?.to ?? '' })}
      confirmLabel={t('settings.outbox.deleteDialog.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={props.onClose}
    />
  );
}

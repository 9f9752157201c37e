import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useTerminateSession } from '../api/terminate-session';
import type { SessionRow } from '../derive';

/**
 * Asks before terminating a live session, naming its user and host; the user is disconnected at
 * once and told who ended the session. A session that ended meanwhile is said so, not shown as a failure.
 */
export function TerminateDialog({ row, onClose }: { row: SessionRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useTerminateSession();
  const confirm = () => {
    if (!row) return;
    mutation.mutate(
      { id: row.id, hostId: row.host.id },
      {
        onSuccess: () => {
          snackbar.success(t('sessions.terminated'));
          onClose();
        },
        onError: (error) => {
          snackbar.error(errorText(error, { 409: t('sessions.terminate.alreadyEnded') }));
          onClose();
        },
      },
    );
  };
  return (
    <ConfirmDialog
      open={row !== null}
      title={t('sessions.terminate.title')}
      message={row ? t('sessions.terminate.message', { user: row.user.email, hostname: row.host.hostname }) : ''}
      confirmLabel={t('sessions.terminate.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

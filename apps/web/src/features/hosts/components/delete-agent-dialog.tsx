import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useDeleteAgent } from '../api/delete-agent';
import type { AgentItem } from '../api/list-agents';

/** Asks before deleting a host, naming it; the agent is disconnected and cannot come back unenrolled. */
export function DeleteAgentDialog({ agent, onClose }: { agent: AgentItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useDeleteAgent();
  const confirm = () => {
    if (!agent) return;
    mutation.mutate(agent.id, {
      onSuccess: () => {
        snackbar.success(t('hosts.deleted'));
        onClose();
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };
  return (
    <ConfirmDialog
      open={agent !== null}
      title={t('hosts.deleteDialog.title')}
      message={t('hosts.deleteDialog.message', { hostname: agent?.hostname ?? '' })}
      confirmLabel={t('hosts.deleteDialog.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

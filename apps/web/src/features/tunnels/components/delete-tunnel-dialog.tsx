import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { TunnelItem } from '../api/list-tunnels';
import { useDeleteTunnel } from '../api/tunnel-mutations';

/** Asks before deleting a definition, naming it and its host. */
export function DeleteTunnelDialog({ item, onClose }: { item: TunnelItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useDeleteTunnel();
  const confirm = () => {
    if (!item) return;
    mutation.mutate(item.id, {
      onSuccess: () => {
        snackbar.success(t('tunnels.deleted'));
        onClose();
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };
  return (
    <ConfirmDialog
      open={item !== null}
      title={t('tunnels.deleteDialog.title')}
      message={t('tunnels.deleteDialog.message', { name: item?.name ?? '', hostname: item?.host.hostname ?? '' })}
      confirmLabel={t('tunnels.deleteDialog.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useDeleteKey } from '../api/delete-key';
import type { KeyItem } from '../api/list-keys';

/** Asks before deleting a key, naming its description; agents can no longer register with it. */
export function DeleteKeyDialog({ item, onClose }: { item: KeyItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useDeleteKey();
  const confirm = () => {
    if (!item) return;
    mutation.mutate(item.uuid, {
      onSuccess: () => {
        snackbar.success(t('registrationKeys.deleted'));
        onClose();
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };
  return (
    <ConfirmDialog
      open={item !== null}
      title={t('registrationKeys.deleteDialog.title')}
      message={t('registrationKeys.deleteDialog.message', { description: item?.description ?? '' })}
      confirmLabel={t('registrationKeys.deleteDialog.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

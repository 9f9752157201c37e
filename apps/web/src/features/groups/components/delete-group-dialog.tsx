import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useDeleteGroup } from '../api/delete-group';

/** Asks before deleting a group, naming it; its members lose what they reached through it. */
export function DeleteGroupDialog({ name, onClose }: { name: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useDeleteGroup();
  const confirm = () => {
    if (name === null) return;
    mutation.mutate(name, {
      onSuccess: () => {
        snackbar.success(t('groups.deleted'));
        onClose();
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };
  return (
    <ConfirmDialog
      open={name !== null}
      title={t('groups.deleteDialog.title')}
      message={t('groups.deleteDialog.message', { name: name ?? '' })}
      confirmLabel={t('groups.deleteDialog.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

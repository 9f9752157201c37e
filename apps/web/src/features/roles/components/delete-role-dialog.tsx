import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useDeleteRole } from '../api/delete-role';
import type { RoleItem } from '../api/list-roles';

/** Asks before deleting a role, naming it and how many users lose it. */
export function DeleteRoleDialog({ role, onClose }: { role: RoleItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useDeleteRole();
  const confirm = () => {
    if (!role) return;
    mutation.mutate(role.name, {
      onSuccess: () => {
        snackbar.success(t('roles.deleted'));
        onClose();
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };
  return (
    <ConfirmDialog
      open={role !== null}
      title={t('roles.deleteDialog.title')}
      message={t('roles.deleteDialog.message', { name: role?.name ?? '', total: role?.user_count ?? 0 })}
      confirmLabel={t('roles.deleteDialog.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { useDeleteUser } from '../api/delete-user';
import { useResetUserPassword } from '../api/reset-user-password';
import type { UserAction } from './user-columns';

/** The confirmations of the delete and password-reset row actions, and their outcome messages. */
export function UserActionDialogs({
  action,
  onDone,
}: {
  action: { kind: UserAction; email: string } | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const remove = useDeleteUser();
  const reset = useResetUserPassword();
  const email = action?.email ?? '';
  const fail = (error: unknown) => snackbar.error(errorText(error, t('message.somethingWentWrong')));

  return (
    <>
      <ConfirmDialog
        open={action?.kind === 'delete'}
        title={t('users.delete.title')}
        message={t('users.delete.message', { email })}
        confirmLabel={t('common.delete')}
        destructive
        busy={remove.isPending}
        onCancel={onDone}
        onConfirm={() =>
          remove.mutate(email, {
            onSuccess: () => snackbar.success(t('users.delete.success')),
            onError: fail,
            onSettled: onDone,
          })
        }
      />
      <ConfirmDialog
        open={action?.kind === 'reset'}
        title={t('users.reset.title')}
        message={t('users.reset.message', { email })}
        confirmLabel={t('users.reset.confirm')}
        busy={reset.isPending}
        onCancel={onDone}
        onConfirm={() =>
          reset.mutate(email, {
            // The server's own words: 'Password reset email sent to {email}.' (spec §8).
            onSuccess: (answer) => snackbar.success(answer.message),
            onError: fail,
            onSettled: onDone,
          })
        }
      />
    </>
  );
}

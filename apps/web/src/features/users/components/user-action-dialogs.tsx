import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { useDeleteUser } from '../api/delete-user';
import { useResetUserPassword } from '../api/reset-user-password';
import { useResetUserTwoFactor } from '../api/reset-user-two-factor';
import type { UserAction } from './user-columns';

/** The confirmations of the delete, password-reset and two-factor-reset row actions, and their outcome messages. */
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
  const resetFactors = useResetUserTwoFactor();
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
      <ConfirmDialog
        open={action?.kind === 'two-factor'}
        title={t('users.twoFactor.title')}
        message={t('users.twoFactor.message', { email })}
        confirmLabel={t('users.twoFactor.confirm')}
        destructive
        busy={resetFactors.isPending}
        onCancel={onDone}
        onConfirm={() =>
          resetFactors.mutate(email, {
            onSuccess: () => snackbar.success(t('users.twoFactor.success', { email })),
            onError: fail,
            onSettled: onDone,
          })
        }
      />
    </>
  );
}

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MemberList } from '../../../components/member-list';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { PickedUser } from '../../../components/user-picker';
import { UserPicker } from '../../../components/user-picker';
import type { RoleDetail } from '../api/get-role';
import { useRemoveUserRole } from '../api/remove-user-role';
import { useSetRoleUsers } from '../api/set-role-users';

/** Who holds a role; holders of modify-user-role give it to users and take it away. */
export function RoleHolders({ role, canAssign }: { role: RoleDetail; canAssign: boolean }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const assign = useSetRoleUsers();
  const remove = useRemoveUserRole();
  const [picked, setPicked] = useState<PickedUser[]>([]);

  const give = () =>
    assign.mutate(
      { role: role.name, users: picked.map((user) => user.email) },
      {
        onSuccess: () => {
          setPicked([]);
          snackbar.success(t('roles.updated'));
        },
        onError: (error) => snackbar.error(errorText(error, { 409: t('roles.errors.alreadyAdded') })),
      },
    );
  const takeAway = (email: string) =>
    remove.mutate(
      { email, role: role.name },
      {
        onSuccess: () => snackbar.success(t('roles.updated')),
        onError: (error) => snackbar.error(errorText(error)),
      },
    );

  return (
    <Stack spacing={2}>
      {canAssign ? (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <UserPicker
            label={t('roles.detail.usersToAssign')}
            value={picked}
            onChange={setPicked}
            exclude={role.users}
          />
          <Button
            variant="contained"
            onClick={give}
            disabled={picked.length === 0 || assign.isPending}
            loading={assign.isPending}
            sx={{ mt: 1 }}
          >
            {t('roles.detail.assign')}
          </Button>
        </Box>
      ) : null}
      <MemberList
        label={t('roles.detail.holdersOf', { name: role.name })}
        searchLabel={t('roles.detail.searchHolders')}
        items={role.users.map((email) => ({ id: email, primary: email }))}
        emptyText={canAssign ? t('roles.detail.noHoldersAssign') : t('roles.detail.noHolders')}
        onRemove={canAssign ? (item) => takeAway(item.id) : undefined}
        removeLabel={(item) => t('roles.detail.removeHolder', { email: item.id, name: role.name })}
        busy={remove.isPending}
      />
    </Stack>
  );
}

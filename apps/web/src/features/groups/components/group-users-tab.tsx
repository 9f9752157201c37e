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
import { useAddGroupUsers } from '../api/add-group-users';
import type { GroupItem } from '../api/list-groups';
import { useRemoveGroupUser } from '../api/remove-group-user';

/** A group's direct users; holders of modify-group add users with the picker and remove them. */
export function GroupUsersTab({ group, canModify }: { group: GroupItem; canModify: boolean }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const add = useAddGroupUsers();
  const remove = useRemoveGroupUser();
  const [picked, setPicked] = useState<PickedUser[]>([]);

  const addPicked = () =>
    add.mutate(
      { group: group.name, users: picked.map((user) => user.email) },
      {
        onSuccess: () => {
          setPicked([]);
          snackbar.success(t('groups.userAdded'));
        },
        onError: (error) => snackbar.error(errorText(error, { 409: t('groups.errors.alreadyIncluded') })),
      },
    );
  const removeUser = (email: string) =>
    remove.mutate(
      { group: group.name, email },
      {
        onSuccess: () => snackbar.success(t('groups.userRemoved')),
        onError: (error) => snackbar.error(errorText(error)),
      },
    );

  return (
    <Stack spacing={2}>
      {canModify ? (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <UserPicker label={t('groups.users.toAdd')} value={picked} onChange={setPicked} exclude={group.users} />
          <Button
            variant="contained"
            onClick={addPicked}
            disabled={picked.length === 0 || add.isPending}
            loading={add.isPending}
            sx={{ mt: 1 }}
          >
            {t('groups.users.add')}
          </Button>
        </Box>
      ) : null}
      <MemberList
        label={t('groups.users.listLabel', { name: group.name })}
        searchLabel={t('groups.users.search')}
        items={group.users.map((email) => ({ id: email, primary: email }))}
        emptyText={canModify ? t('groups.users.emptyEditor') : t('groups.users.empty')}
        onRemove={canModify ? (item) => removeUser(item.id) : undefined}
        removeLabel={(item) => t('groups.users.remove', { email: item.id, name: group.name })}
        busy={remove.isPending}
      />
    </Stack>
  );
}

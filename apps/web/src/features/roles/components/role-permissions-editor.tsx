import { ADMIN_ROLE } from '@gatehouse/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MemberList } from '../../../components/member-list';
import { PermissionChips } from '../../../components/permissions/permission-chips';
import { PermissionSelect } from '../../../components/permissions/permission-select';
import { sortByArea } from '../../../components/permissions/permission-areas';
import { usePermissionCatalogue } from '../../../components/permissions/use-permission-catalogue';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useAddRolePermissions } from '../api/add-role-permissions';
import type { RoleDetail } from '../api/get-role';
import { useRemoveRolePermissions } from '../api/remove-role-permissions';

/**
 * A role's permissions: listed with what each allows; holders of modify-role add and remove
 * them. The admin role holds every permission and is never edited.
 */
export function RolePermissionsEditor({ role, canModify }: { role: RoleDetail; canModify: boolean }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const catalogue = usePermissionCatalogue();
  const add = useAddRolePermissions();
  const remove = useRemoveRolePermissions();
  const [picked, setPicked] = useState<string[]>([]);
  const busy = add.isPending || remove.isPending;

  if (role.name === ADMIN_ROLE) {
    return (
      <Stack spacing={1.5}>
        <Alert severity="info" variant="outlined">
          {t('roles.detail.adminNote')}
        </Alert>
        <PermissionChips permissions={catalogue.data?.permissions ?? role.permissions} />
      </Stack>
    );
  }

  const handlers = {
    onSuccess: () => snackbar.success(t('roles.updated')),
    onError: (error: unknown) => snackbar.error(errorText(error)),
  };
  const addPicked = () =>
    add.mutate(
      { role: role.name, permissions: picked },
      {
        ...handlers,
        onSuccess: () => {
          setPicked([]);
          handlers.onSuccess();
        },
      },
    );
  const offered = (catalogue.data?.permissions ?? []).filter((p) => !role.permissions.includes(p));

  return (
    <Stack spacing={2}>
      <MemberList
        label={t('roles.detail.permissionsOf', { name: role.name })}
        searchLabel={t('roles.detail.searchPermissions')}
        items={sortByArea(role.permissions).map((p) => ({
          id: p,
          primary: p,
          secondary: t(`shared.permissionInfo.${p}`, { defaultValue: '' }),
        }))}
        emptyText={t('roles.detail.noPermissions')}
        onRemove={
          canModify ? (item) => remove.mutate({ role: role.name, permissions: [item.id] }, handlers) : undefined
        }
        removeLabel={(item) => t('roles.detail.removePermission', { permission: item.id, name: role.name })}
        busy={busy}
      />
      {canModify ? (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <Box sx={{ flex: 1, minWidth: 260 }}>
            <PermissionSelect
              label={t('roles.detail.permissionsToAdd')}
              options={offered}
              loading={catalogue.isLoading}
              value={picked}
              onChange={setPicked}
              helperText={t('roles.grantHint')}
            />
          </Box>
          <Button
            variant="contained"
            onClick={addPicked}
            disabled={picked.length === 0 || busy}
            loading={add.isPending}
            sx={{ mt: 1 }}
          >
            {t('roles.detail.addPermissions')}
          </Button>
        </Box>
      ) : null}
    </Stack>
  );
}

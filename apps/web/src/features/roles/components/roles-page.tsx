import AddOutlined from '@mui/icons-material/AddOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table';
import { EmptyState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import type { RoleItem } from '../api/list-roles';
import { useRoles } from '../api/list-roles';
import { CreateRoleDialog } from './create-role-dialog';
import { DeleteRoleDialog } from './delete-role-dialog';
import { useRoleColumns, useRoleSummary } from './role-columns';
import { RoleDetailDialog } from './role-detail-dialog';

const searchTexts = (role: RoleItem) => [role.name, ...role.permissions];
const roleId = (role: RoleItem) => role.name;

/** /roles (list-user-role): every role, its permissions and holders; editing for those allowed. */
export function RolesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const roles = useRoles();
  const canCreate = hasPermission(user, ['create-role']);
  const rights = {
    canModify: hasPermission(user, ['modify-role']),
    canAssign: hasPermission(user, ['modify-user-role']),
  };
  const [creating, setCreating] = useState(false);
  const [openName, setOpenName] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<RoleItem | null>(null);
  const open = useCallback((role: RoleItem) => setOpenName(role.name), []);
  const columns = useRoleColumns({ onOpen: open, onDelete: rights.canModify ? setDeleting : undefined });
  const summary = useRoleSummary(open);

  const createButton = canCreate ? (
    <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
      {t('roles.create')}
    </Button>
  ) : null;

  return (
    <Box>
      <PageHeader title={t('pages.roles')} subtitle={t('roles.subtitle')} actions={createButton} />
      {!canCreate && !rights.canModify && !rights.canAssign ? (
        <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
          {t('roles.readOnly')}
        </Alert>
      ) : null}
      <DataTable<RoleItem>
        label={t('pages.roles')}
        searchLabel={t('roles.search')}
        rows={roles.data?.roles}
        columns={columns}
        summary={summary}
        getRowId={roleId}
        searchTexts={searchTexts}
        loading={roles.isLoading}
        error={roles.error}
        onRetry={() => void roles.refetch()}
        onOpenRow={open}
        empty={
          <EmptyState
            icon={AdminPanelSettingsOutlined}
            title={t('roles.empty.title')}
            hint={canCreate ? t('roles.empty.hint') : t('roles.empty.hintReader')}
            action={createButton}
          />
        }
      />
      <CreateRoleDialog open={creating} onClose={() => setCreating(false)} />
      <RoleDetailDialog name={openName} rights={rights} onClose={() => setOpenName(null)} />
      <DeleteRoleDialog role={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}

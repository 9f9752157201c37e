import AddOutlined from '@mui/icons-material/AddOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table';
import { EmptyState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import type { GroupItem } from '../api/list-groups';
import { useGroups } from '../api/list-groups';
import { CreateGroupDialog } from './create-group-dialog';
import { DeleteGroupDialog } from './delete-group-dialog';
import { useGroupColumns, useGroupSummary } from './group-columns';
import { GroupDetailDialog } from './group-detail-dialog';

const searchTexts = (group: GroupItem) => [
  group.name,
  ...group.users,
  ...group.agents.map((agent) => agent.hostname),
  ...group.groups,
];
const groupId = (group: GroupItem) => group.name;

/** /groups (list-group): security groups of users, agents and other groups. */
export function GroupsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const groups = useGroups();
  const canModify = hasPermission(user, ['modify-group']);
  const [creating, setCreating] = useState(false);
  const [openName, setOpenName] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const open = useCallback((group: GroupItem) => setOpenName(group.name), []);
  const remove = useCallback((group: GroupItem) => setDeleting(group.name), []);
  const columns = useGroupColumns({ onOpen: open, onDelete: canModify ? remove : undefined });
  const summary = useGroupSummary(open);
  const all = groups.data?.groups ?? [];
  // The detail follows the list, so it shows each change once the list is fetched again.
  const opened = all.find((group) => group.name === openName) ?? null;

  const createButton = canModify ? (
    <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
      {t('groups.create')}
    </Button>
  ) : null;

  return (
    <Box>
      <PageHeader title={t('pages.groups')} subtitle={t('groups.subtitle')} actions={createButton} />
      <DataTable<GroupItem>
        label={t('pages.groups')}
        searchLabel={t('groups.search')}
        rows={groups.data?.groups}
        columns={columns}
        summary={summary}
        getRowId={groupId}
        searchTexts={searchTexts}
        loading={groups.isLoading}
        error={groups.error}
        onRetry={() => void groups.refetch()}
        onOpenRow={open}
        empty={
          <EmptyState
            icon={GroupsOutlined}
            title={t('groups.empty.title')}
            hint={canModify ? t('groups.empty.hint') : t('groups.empty.hintReader')}
            action={createButton}
          />
        }
      />
      <CreateGroupDialog open={creating} onClose={() => setCreating(false)} onCreated={setOpenName} />
      <GroupDetailDialog group={opened} groups={all} canModify={canModify} onClose={() => setOpenName(null)} />
      <DeleteGroupDialog name={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}

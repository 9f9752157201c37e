import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { MemberList } from '../../../components/member-list';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { GroupItem } from '../api/list-groups';
import { useRemoveGroupAgent } from '../api/remove-group-agent';

/**
 * A group's agents. There is no agent list to choose from until agents can enroll, so there is
 * no add control yet; agents already in the group are shown and can be removed.
 */
export function GroupAgentsTab({ group, canModify }: { group: GroupItem; canModify: boolean }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const remove = useRemoveGroupAgent();
  const removeAgent = (id: string) =>
    remove.mutate(
      { group: group.name, id },
      {
        onSuccess: () => snackbar.success(t('groups.agentRemoved')),
        onError: (error) => snackbar.error(errorText(error)),
      },
    );

  return (
    <Stack spacing={2}>
      <Alert severity="info" variant="outlined">
        {t('groups.agents.enrolNote')}
      </Alert>
      <MemberList
        label={t('groups.agents.listLabel', { name: group.name })}
        searchLabel={t('groups.agents.search')}
        items={group.agents.map((agent) => ({ id: agent.id, primary: agent.hostname, secondary: agent.id }))}
        emptyText={t('groups.agents.empty')}
        onRemove={canModify ? (item) => removeAgent(item.id) : undefined}
        removeLabel={(item) => t('groups.agents.remove', { hostname: item.primary, name: group.name })}
        busy={remove.isPending}
      />
    </Stack>
  );
}

import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { MemberList } from '../../../components/member-list';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { GroupItem } from '../api/list-groups';
import { useRemoveGroupAgent } from '../api/remove-group-agent';
import { AgentAdder } from './agent-adder';

/** A group's agents; holders of modify-group add enrolled agents and remove them. */
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
      {canModify ? <AgentAdder group={group} /> : null}
      <MemberList
        label={t('groups.agents.listLabel', { name: group.name })}
        searchLabel={t('groups.agents.search')}
        items={group.agents.map((agent) => ({ id: agent.id, primary: agent.hostname, secondary: agent.id }))}
        emptyText={canModify ? t('groups.agents.emptyEditor') : t('groups.agents.empty')}
        onRemove={canModify ? (item) => removeAgent(item.id) : undefined}
        removeLabel={(item) => t('groups.agents.remove', { hostname: item.primary, name: group.name })}
        busy={remove.isPending}
      />
    </Stack>
  );
}

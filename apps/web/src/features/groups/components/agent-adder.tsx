import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import { useAddGroupAgents } from '../api/add-group-agents';
import type { AgentChoice } from '../api/list-agents';
import { useAgentChoices } from '../api/list-agents';
import type { GroupItem } from '../api/list-groups';

/**
 * Adds enrolled agents to a group. Choosing needs the agent list (list-host); without it, or
 * before any agent has enrolled, a one-line note says so instead.
 */
export function AgentAdder({ group }: { group: GroupItem }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const canList = hasPermission(user, ['list-host']);
  const agents = useAgentChoices(canList);
  const add = useAddGroupAgents();
  const [picked, setPicked] = useState<AgentChoice[]>([]);

  if (!canList)
    return (
      <Alert severity="info" variant="outlined">
        {t('groups.agents.needListHost')}
      </Alert>
    );
  if (agents.isSuccess && agents.data.agents.length === 0) {
    return (
      <Alert severity="info" variant="outlined">
        {t('groups.agents.noneEnrolled')}
      </Alert>
    );
  }
  const inGroup = new Set(group.agents.map((agent) => agent.id));
  const choices = (agents.data?.agents ?? []).filter((agent) => !inGroup.has(agent.id));
  const addPicked = () =>
    add.mutate(
      { group: group.name, agents: picked.map((agent) => agent.id) },
      {
        onSuccess: () => {
          setPicked([]);
          snackbar.success(t('groups.hostAdded'));
        },
        onError: (error) => snackbar.error(errorText(error)),
      },
    );

  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <Autocomplete
        multiple
        filterSelectedOptions
        options={choices}
        value={picked}
        onChange={(_event, chosen) => setPicked(chosen)}
        getOptionLabel={(agent) => agent.hostname}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        loading={agents.isLoading}
        loadingText={t('common.loading')}
        noOptionsText={agents.isError ? errorText(agents.error) : t('groups.agents.allInGroup')}
        renderOption={(props, agent) => {
          const { key, ...rest } = props;
          return (
            <Box component="li" key={key} {...rest} sx={{ justifyContent: 'space-between !important', gap: 2 }}>
              <span>{agent.hostname}</span>
              <Typography variant="caption" sx={{ color: agent.connected ? 'success.main' : 'text.secondary' }}>
                {agent.connected ? t('groups.agents.connected') : t('groups.agents.disconnected')}
              </Typography>
            </Box>
          );
        }}
        renderInput={(params) => <TextField {...params} label={t('groups.agents.toAdd')} />}
        sx={{ flex: 1, minWidth: 240 }}
      />
      <Button
        variant="contained"
        onClick={addPicked}
        disabled={picked.length === 0 || add.isPending}
        loading={add.isPending}
        sx={{ mt: 1 }}
      >
        {t('groups.agents.add')}
      </Button>
    </Box>
  );
}

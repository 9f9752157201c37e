import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { TunnelItem } from '../api/list-tunnels';
import { useSetTunnelAgents } from '../api/tunnel-mutations';
import { useHostOptions } from '../api/tunnel-options';
import { useLast } from './use-last';

type AgentRef = TunnelItem['agents'][number];

function AgentsEditor({ item, onClose }: { item: TunnelItem; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const hosts = useHostOptions();
  const mutation = useSetTunnelAgents();
  const [chosen, setChosen] = useState<AgentRef[]>(item.agents);
  const options: AgentRef[] = (hosts.data?.agents ?? []).map(({ id, hostname }) => ({ id, hostname }));
  const save = () =>
    mutation.mutate(
      { id: item.id, agents: chosen.map((agent) => agent.id) },
      {
        onSuccess: () => {
          snackbar.success(t('tunnels.updated'));
          onClose();
        },
        onError: (error) => snackbar.error(errorText(error)),
      },
    );
  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('tunnels.agents.text', { hostname: item.host.hostname })}
        </DialogContentText>
        <Autocomplete
          multiple
          filterSelectedOptions
          options={options}
          value={chosen}
          onChange={(_event, value) => setChosen(value)}
          getOptionLabel={(agent) => agent.hostname}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          loading={hosts.isLoading}
          loadingText={t('common.loading')}
          noOptionsText={t('tunnels.agents.none')}
          disabled={mutation.isPending}
          renderInput={(params) => <TextField {...params} label={t('tunnels.agents.label')} />}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} color="inherit" disabled={mutation.isPending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={save} loading={mutation.isPending}>
          {t('tunnels.agents.save')}
        </Button>
      </DialogActions>
    </>
  );
}

/** The agents that may open an agent tunnel: exactly the set chosen here is saved. */
export function AssignAgentsDialog(props: { item: TunnelItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const item = useLast(props.item);
  return (
    <Dialog open={props.item !== null} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('tunnels.agents.title', { name: item?.name ?? '' })}</DialogTitle>
      {item ? <AgentsEditor item={item} onClose={props.onClose} /> : null}
    </Dialog>
  );
}

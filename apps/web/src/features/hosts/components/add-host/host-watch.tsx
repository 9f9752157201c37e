import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AgentItem } from '../../api/list-agents';

/** Props of the watch: hosts known when it began, and the live list. */
export interface HostWatchProps {
  known: ReadonlySet<string>;
  agents: readonly AgentItem[];
}

/** Waits for a host that was not in the list before; the socket keeps the list live. */
export function HostWatch({ known, agents }: HostWatchProps) {
  const { t } = useTranslation();
  const joined = agents.filter((agent) => !known.has(agent.id));
  if (joined.length === 0) {
    return (
      <Stack spacing={1} role="status" aria-live="polite">
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('hosts.addDialog.waiting')}
        </Typography>
        <LinearProgress aria-label={t('hosts.addDialog.waiting')} />
      </Stack>
    );
  }
  return (
    <Stack spacing={1} role="status" aria-live="polite">
      {joined.map((agent) => (
        <Alert key={agent.id} severity="success" variant="outlined">
          {agent.connected
            ? t('hosts.addDialog.joinedConnected', { hostname: agent.hostname })
            : t('hosts.addDialog.joined', { hostname: agent.hostname })}
        </Alert>
      ))}
    </Stack>
  );
}

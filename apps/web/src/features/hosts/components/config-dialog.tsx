import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/data-table/table-states';
import { useAgentConfig } from '../api/agent-config';
import type { AgentItem } from '../api/list-agents';
import { ConfigEditor } from './config-editor';

/** Props of the host configuration dialog; `agent` null closes it. */
export interface ConfigDialogProps {
  agent: AgentItem | null;
  /** Holds modify-agent-config: may save; others see the fields read-only. */
  canModify: boolean;
  onClose: () => void;
}

/** A host's configuration, read afresh from the server each time it opens. */
export function ConfigDialog({ agent, canModify, onClose }: ConfigDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const config = useAgentConfig(agent?.id ?? null);
  let body;
  if (agent && config.data) {
    body = <ConfigEditor key={agent.id} agent={agent} config={config.data} canModify={canModify} onClose={onClose} />;
  } else {
    body = (
      <>
        <DialogContent>
          {config.error ? (
            <ErrorState error={config.error} onRetry={() => void config.refetch()} />
          ) : (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Box>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose}>{t('common.close')}</Button>
        </DialogActions>
      </>
    );
  }
  return (
    <Dialog open={agent !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('hosts.config.title', { hostname: agent?.hostname ?? '' })}</DialogTitle>
      {body}
    </Dialog>
  );
}

import AddOutlined from '@mui/icons-material/AddOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table';
import { EmptyState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import type { AgentItem } from '../api/list-agents';
import { useAgents } from '../api/list-agents';
import { AddHostDialog } from './add-host/add-host-dialog';
import { useAgentColumns, useAgentSummary } from './agent-columns';
import { ConfigDialog } from './config-dialog';
import { DeleteAgentDialog } from './delete-agent-dialog';

/** The column that goes first where the list is narrow: the agent's version (the host's settings show it). */
const HOST_OPTIONAL = ['version'];

const searchTexts = (agent: AgentItem) => [agent.hostname, agent.version ?? ''];
const agentId = (agent: AgentItem) => agent.id;

/** /hosts (list-host): enrolled hosts, live; configure, delete and add hosts. */
export function HostsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const agents = useAgents();
  const canModify = hasPermission(user, ['modify-agent-config']);
  const [adding, setAdding] = useState(false);
  const [configuringId, setConfiguringId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AgentItem | null>(null);
  const configure = useCallback((agent: AgentItem) => setConfiguringId(agent.id), []);
  const remove = useCallback((agent: AgentItem) => setDeleting(agent), []);
  const columns = useAgentColumns({ onConfigure: configure, onDelete: canModify ? remove : undefined });
  const summary = useAgentSummary(configure);
  // The dialog follows the list, so a host that goes away closes it.
  const configuring = agents.data?.agents.find((agent) => agent.id === configuringId) ?? null;

  const addButton = (
    <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setAdding(true)}>
      {t('hosts.add')}
    </Button>
  );

  return (
    <Box>
      <PageHeader title={t('pages.agents')} subtitle={t('hosts.subtitle')} actions={addButton} />
      <DataTable<AgentItem>
        label={t('pages.agents')}
        searchLabel={t('hosts.search')}
        rows={agents.data?.agents}
        columns={columns}
        summary={summary}
        optional={HOST_OPTIONAL}
        getRowId={agentId}
        searchTexts={searchTexts}
        loading={agents.isLoading}
        error={agents.error}
        onRetry={() => void agents.refetch()}
        onOpenRow={configure}
        empty={
          <EmptyState
            icon={DnsOutlined}
            title={t('hosts.empty.title')}
            hint={t('hosts.empty.hint')}
            action={addButton}
          />
        }
      />
      <AddHostDialog open={adding} onClose={() => setAdding(false)} />
      <ConfigDialog agent={configuring} canModify={canModify} onClose={() => setConfiguringId(null)} />
      <DeleteAgentDialog agent={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}

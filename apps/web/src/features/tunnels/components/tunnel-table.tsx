import SettingsEthernetOutlined from '@mui/icons-material/SettingsEthernetOutlined';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table';
import { EmptyState } from '../../../components/data-table/table-states';
import type { TunnelItem } from '../api/list-tunnels';
import type { TunnelAction, TunnelTab } from './tunnel-columns';
import { useTunnelColumns, useTunnelSummary } from './tunnel-columns';

/** Columns that go first where the list is narrow (the tunnel's edit dialog shows them): its login, the login's method, the group. */
const TUNNEL_OPTIONAL = ['ssh_auth', 'ssh_login', 'group'];

/** Props of one tab's grid. */
export interface TunnelTableProps {
  tab: TunnelTab;
  rows: readonly TunnelItem[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  canModify: boolean;
  onAction: (action: TunnelAction, item: TunnelItem) => void;
  /** The create button, for the empty state; null for those who may not create. */
  createButton: ReactNode;
}

const searchTexts = (item: TunnelItem) => [
  item.name,
  item.type,
  item.host.hostname,
  String(item.port),
  item.group ?? '',
  item.ssh_login ?? '',
  ...item.agents.map((agent) => agent.hostname),
];
const tunnelId = (item: TunnelItem) => item.id;

/** The definitions of one tab, searchable and sortable, with loading, empty and error states. */
export function TunnelTable(props: TunnelTableProps) {
  const { t } = useTranslation();
  const { onAction, canModify } = props;
  const columns = useTunnelColumns(props.tab, canModify, onAction);
  const summary = useTunnelSummary();
  return (
    <DataTable<TunnelItem>
      label={t('tunnels.gridLabel', { tab: t(`tunnels.tabs.${props.tab}`) })}
      searchLabel={t('tunnels.search')}
      rows={props.rows}
      columns={columns}
      summary={summary}
      optional={TUNNEL_OPTIONAL}
      getRowId={tunnelId}
      searchTexts={searchTexts}
      loading={props.loading}
      error={props.error}
      onRetry={props.onRetry}
      onOpenRow={canModify ? (item) => onAction('edit', item) : undefined}
      empty={
        <EmptyState
          icon={SettingsEthernetOutlined}
          title={t(`tunnels.empty.${props.tab}`)}
          hint={props.createButton ? t('tunnels.empty.hint') : t('tunnels.empty.hintReader')}
          action={props.createButton}
        />
      }
    />
  );
}

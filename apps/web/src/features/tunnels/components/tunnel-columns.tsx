import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DesktopWindowsOutlined from '@mui/icons-material/DesktopWindowsOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import type { ReactElement } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { desktopPath } from '../../desktop/feature';
import type { RowSummary } from '../../../components/data-table/data-table';
import { SummaryCell } from '../../../components/data-table/summary-cell';
import type { TunnelItem, TunnelType } from '../api/list-tunnels';

/** What a row's buttons do. */
export type TunnelAction = 'edit' | 'users' | 'agents' | 'publicKey' | 'delete';

/** Which tab the grid is on: one type, or all. */
export type TunnelTab = TunnelType | 'all';

/** Below lg, a definition in one cell: name, type and target, group, users, agents, login (sorted by name). */
export function useTunnelSummary(): RowSummary<TunnelItem> {
  const { t } = useTranslation();
  return useMemo<RowSummary<TunnelItem>>(
    () => ({
      header: t('tunnels.columns.name'),
      sortValue: (row) => row.name,
      render: (row) => (
        <SummaryCell
          title={row.name}
          lines={[
            `${t(`tunnels.types.${row.type}`)} · ${row.host.hostname}:${row.port}`,
            [
              ...(row.group ? [`${t('tunnels.columns.group')}: ${row.group}`] : []),
              `${t('tunnels.columns.users')}: ${row.users.length}`,
            ].join(' · '),
            ...(row.agents.length > 0
              ? [`${t('tunnels.columns.agents')}: ${row.agents.map((agent) => agent.hostname).join(', ')}`]
              : []),
            ...(row.ssh_login ? [`${t('tunnels.columns.login')}: ${row.ssh_login}`] : []),
          ]}
        />
      ),
    }),
    [t],
  );
}

/** The tunnels grid's columns for a tab; `canModify` adds the buttons that change a definition. */
export function useTunnelColumns(
  tab: TunnelTab,
  canModify: boolean,
  onAction: (action: TunnelAction, item: TunnelItem) => void,
): GridColDef<TunnelItem>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<TunnelItem>[]>(() => {
    const dash = (value: string | null | undefined) => value || '-';
    const columns: GridColDef<TunnelItem>[] = [
      // The widths fit the ssh tab's columns in a 1440 px window's content (about 1070 px) without
      // scrolling sideways; below lg the summary shows instead.
      { field: 'name', headerName: t('tunnels.columns.name'), flex: 1.6, minWidth: 140 },
      {
        field: 'type',
        headerName: t('tunnels.columns.type'),
        width: 90,
        valueFormatter: (value: TunnelType) => t(`tunnels.types.${value}`),
      },
      {
        // The target as host:port in one column (sorted by host, then port): a port column of its
        // own made the ssh tab too wide for a laptop.
        field: 'host',
        headerName: t('tunnels.columns.host'),
        flex: 1.4,
        minWidth: 150,
        valueGetter: (_value, row) => `${row.host.hostname}:${String(row.port).padStart(5, '0')}`,
        valueFormatter: (_value, row) => `${row.host.hostname}:${row.port}`,
      },
      { field: 'group', headerName: t('tunnels.columns.group'), flex: 1, minWidth: 100, valueFormatter: dash },
      {
        field: 'users',
        headerName: t('tunnels.columns.users'),
        width: 120,
        valueGetter: (_value, row) => row.users.length,
      },
    ];
    if (tab === 'agent' || tab === 'all')
      columns.push({
        field: 'agents',
        headerName: t('tunnels.columns.agents'),
        flex: 1.2,
        minWidth: 140,
        valueGetter: (_value, row) => row.agents.map((agent) => agent.hostname).join(', '),
        valueFormatter: dash,
      });
    if (tab === 'ssh')
      columns.push(
        { field: 'ssh_login', headerName: t('tunnels.columns.login'), flex: 1, minWidth: 110, valueFormatter: dash },
        {
          field: 'ssh_auth',
          headerName: t('tunnels.columns.auth'),
          width: 150,
          valueFormatter: (value: 'key' | 'password' | null) => (value ? t(`tunnels.auth.${value}`) : '-'),
        },
      );
    columns.push({
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      // Room for five buttons (an rdp row: desktop, edit, users, delete; an agent row: edit, users,
      // delete, agents, public key).
      width: canModify ? 200 : 120,
      align: 'left',
      headerAlign: 'left',
      getActions: ({ row }) => {
        const item = (action: TunnelAction, icon: ReactElement, label: string) => (
          <GridActionsCellItem key={action} icon={icon} label={label} onClick={() => onAction(action, row)} />
        );
        const name = { name: row.name };
        // The actions every row has come first, so they line up; the type-specific one follows.
        return [
          // An rdp definition's desktop opens in the browser (features/desktop; the console's routes
          // are in the hash); the server admits the user or says why not.
          ...(row.type === 'rdp'
            ? [
                <GridActionsCellItem
                  key="desktop"
                  icon={<DesktopWindowsOutlined />}
                  label={t('desktop.openAction', name)}
                  onClick={() => {
                    window.location.hash = desktopPath(row.id);
                  }}
                />,
              ]
            : []),
          ...(canModify
            ? [
                item('edit', <EditOutlined />, t('tunnels.actions.edit', name)),
                item('users', <PeopleOutlined />, t('tunnels.actions.users', name)),
                item('delete', <DeleteOutlined />, t('tunnels.actions.delete', name)),
              ]
            : []),
          ...(canModify && row.type === 'agent'
            ? [item('agents', <DnsOutlined />, t('tunnels.actions.agents', name))]
            : []),
          ...(row.public_key ? [item('publicKey', <KeyOutlined />, t('tunnels.actions.publicKey', name))] : []),
        ];
      },
    });
    return columns;
  }, [t, tab, canModify, onAction]);
}

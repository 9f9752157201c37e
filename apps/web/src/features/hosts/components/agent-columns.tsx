import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowSummary } from '../../../components/data-table/data-table';
import { LabelledLine, SummaryCell } from '../../../components/data-table/summary-cell';
import type { AgentItem } from '../api/list-agents';
import { ConnectionStatus, LastSeen, OsLabel } from './agent-cells';
import { CaptureStatusCell } from './capture-cell';

/** Connected first, then reconnecting, then disconnected. */
const STATE_ORDER: Record<AgentItem['state'], number> = { connected: 0, reconnecting: 1, disconnected: 2 };

/** What the rows' buttons do; `onDelete` is left out for those who may not delete. */
export interface AgentColumnActions {
  onConfigure: (agent: AgentItem) => void;
  onDelete?: (agent: AgentItem) => void;
}

/** A host's name as a link that opens its configuration. */
function HostnameLink(props: { row: AgentItem; tabIndex: 0 | -1; onConfigure: (agent: AgentItem) => void }) {
  return (
    <Link
      component="button"
      type="button"
      tabIndex={props.tabIndex}
      onClick={() => props.onConfigure(props.row)}
      sx={{ fontWeight: 500, textAlign: 'start', overflowWrap: 'anywhere' }}
    >
      {props.row.hostname}
    </Link>
  );
}

/** Below lg, a host in one cell: hostname, connection, OS and version, last seen, filming (sorted by hostname). */
export function useAgentSummary(onConfigure: (agent: AgentItem) => void): RowSummary<AgentItem> {
  const { t } = useTranslation();
  return useMemo<RowSummary<AgentItem>>(
    () => ({
      header: t('hosts.columns.hostname'),
      sortValue: (row) => row.hostname,
      render: (row, tabIndex) => (
        <SummaryCell
          title={<HostnameLink row={row} tabIndex={tabIndex} onConfigure={onConfigure} />}
          lines={[
            <ConnectionStatus key="state" state={row.state} />,
            // The version on the OS name's line (centred with its icon, not on the icon's baseline).
            <Box key="os" component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
              <OsLabel os={row.os} />
              {row.version ? <span>{`· ${row.version}`}</span> : null}
            </Box>,
            <LabelledLine key="seen" label={t('hosts.columns.lastSeen')}>
              <LastSeen value={row.last_seen} connected={row.connected} />
            </LabelledLine>,
            <LabelledLine key="capture" label={t('hosts.columns.capture')}>
              <CaptureStatusCell capture={row.capture} />
            </LabelledLine>,
          ]}
        />
      ),
    }),
    [t, onConfigure],
  );
}

/** The agents grid's columns: connection, hostname, OS, agent version, last seen, RDP filming and actions. */
export function useAgentColumns({ onConfigure, onDelete }: AgentColumnActions): GridColDef<AgentItem>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<AgentItem>[]>(
    () => [
      {
        field: 'state',
        headerName: t('hosts.columns.status'),
        width: 150,
        renderCell: ({ row }) => <ConnectionStatus state={row.state} />,
        sortComparator: (a: AgentItem['state'], b: AgentItem['state']) => STATE_ORDER[a] - STATE_ORDER[b],
      },
      {
        field: 'hostname',
        headerName: t('hosts.columns.hostname'),
        flex: 2,
        minWidth: 180,
        renderCell: ({ row, tabIndex }) => <HostnameLink row={row} tabIndex={tabIndex} onConfigure={onConfigure} />,
      },
      {
        field: 'os',
        headerName: t('hosts.columns.os'),
        flex: 1,
        minWidth: 130,
        renderCell: ({ row }) => <OsLabel os={row.os} />,
      },
      {
        field: 'version',
        headerName: t('hosts.columns.version'),
        flex: 1,
        // Room for "Agent version" and its sort arrow: at 110 the header read "Agent vers…".
        minWidth: 135,
        valueFormatter: (value: string | null) => value ?? '-',
      },
      {
        field: 'last_seen',
        headerName: t('hosts.columns.lastSeen'),
        flex: 1.2,
        minWidth: 150,
        renderCell: ({ row }) => <LastSeen value={row.last_seen} connected={row.connected} />,
      },
      {
        field: 'capture',
        headerName: t('hosts.columns.capture'),
        sortable: false,
        flex: 1.4,
        minWidth: 170,
        renderCell: ({ row }) => <CaptureStatusCell capture={row.capture} />,
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: 110,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="configure"
            icon={<TuneOutlined />}
            label={t('hosts.configure', { hostname: row.hostname })}
            onClick={() => onConfigure(row)}
          />,
          ...(onDelete
            ? [
                <GridActionsCellItem
                  key="delete"
                  icon={<DeleteOutlined />}
                  label={t('hosts.delete', { hostname: row.hostname })}
                  onClick={() => onDelete(row)}
                />,
              ]
            : []),
        ],
      },
    ],
    [t, onConfigure, onDelete],
  );
}

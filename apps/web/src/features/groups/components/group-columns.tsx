import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { RowSummary } from '../../../components/data-table/data-table';
import { OpenLink, SummaryCell } from '../../../components/data-table/summary-cell';
import type { GroupItem } from '../api/list-groups';

/** What the rows' buttons do; `onDelete` is left out for those who may not delete. */
export interface GroupColumnActions {
  onOpen: (group: GroupItem) => void;
  onDelete?: (group: GroupItem) => void;
}

/** Below lg, a group in one cell: its name, member counts and creation time (sorted by name). */
export function useGroupSummary(onOpen: (group: GroupItem) => void): RowSummary<GroupItem> {
  const { t } = useTranslation();
  return useMemo<RowSummary<GroupItem>>(
    () => ({
      header: t('groups.columns.name'),
      sortValue: (row) => row.name,
      render: (row, tabIndex) => (
        <SummaryCell
          title={<OpenLink row={row} tabIndex={tabIndex} onOpen={onOpen} />}
          lines={[
            [
              `${t('groups.columns.users')}: ${row.users.length}`,
              `${t('groups.columns.agents')}: ${row.agents.length}`,
              `${t('groups.columns.children')}: ${row.groups.length}`,
            ].join(' · '),
            `${t('groups.columns.created')}: ${formatDateTime(row.created_at)}`,
          ]}
        />
      ),
    }),
    [t, onOpen],
  );
}

/** The groups grid's columns: name, direct member counts, creation time and actions. */
export function useGroupColumns({ onOpen, onDelete }: GroupColumnActions): GridColDef<GroupItem>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<GroupItem>[]>(
    () => [
      {
        field: 'name',
        headerName: t('groups.columns.name'),
        flex: 2,
        minWidth: 140,
        renderCell: ({ row, tabIndex }) => <OpenLink row={row} tabIndex={tabIndex} onOpen={onOpen} />,
      },
      // Counts are not typed 'number': that aligns cells and headers to opposite sides in Arabic;
      // the default comparator still sorts them as numbers.
      {
        field: 'users',
        headerName: t('groups.columns.users'),
        flex: 1,
        minWidth: 100,
        valueGetter: (_value, row) => row.users.length,
      },
      {
        field: 'agents',
        headerName: t('groups.columns.agents'),
        flex: 1,
        minWidth: 100,
        valueGetter: (_value, row) => row.agents.length,
      },
      {
        field: 'groups',
        headerName: t('groups.columns.children'),
        flex: 1,
        minWidth: 130,
        valueGetter: (_value, row) => row.groups.length,
      },
      {
        field: 'created_at',
        headerName: t('groups.columns.created'),
        flex: 1.2,
        minWidth: 160,
        valueFormatter: (value: string) => formatDateTime(value),
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: 110,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="open"
            icon={<TuneOutlined />}
            label={t('groups.open', { name: row.name })}
            onClick={() => onOpen(row)}
          />,
          ...(onDelete
            ? [
                <GridActionsCellItem
                  key="delete"
                  icon={<DeleteOutlined />}
                  label={t('groups.delete', { name: row.name })}
                  onClick={() => onDelete(row)}
                />,
              ]
            : []),
        ],
      },
    ],
    // t changes with the language, so dates are formatted again after a switch.
    [t, onOpen, onDelete],
  );
}

import { ADMIN_ROLE } from '@gatehouse/contracts';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionChips } from '../../../components/permissions/permission-chips';
import type { RowSummary } from '../../../components/data-table/data-table';
import { OpenLink, SummaryCell } from '../../../components/data-table/summary-cell';
import type { RoleItem } from '../api/list-roles';

/** What the rows' buttons do; `onDelete` is left out for those who may not delete. */
export interface RoleColumnActions {
  onOpen: (role: RoleItem) => void;
  onDelete?: (role: RoleItem) => void;
}

/** Built-in roles get a badge; custom ones say so in words. */
function RoleKind({ builtin }: { builtin: boolean }) {
  const { t } = useTranslation();
  return builtin ? <Chip size="small" color="info" variant="outlined" label={t('roles.builtin')} /> : t('roles.custom');
}

/** Below lg, a role in one cell: name, kind and holders, permissions (sorted by name). */
export function useRoleSummary(onOpen: (role: RoleItem) => void): RowSummary<RoleItem> {
  const { t } = useTranslation();
  return useMemo<RowSummary<RoleItem>>(
    () => ({
      header: t('roles.columns.name'),
      sortValue: (row) => row.name,
      render: (row, tabIndex) => (
        <SummaryCell
          title={<OpenLink row={row} tabIndex={tabIndex} onOpen={onOpen} />}
          lines={[
            <span key="kind">
              <RoleKind builtin={row.builtin} /> · {t('roles.columns.holders')}: {row.user_count}
            </span>,
            <PermissionChips key="permissions" permissions={row.permissions} all={row.name === ADMIN_ROLE} />,
          ]}
        />
      ),
    }),
    [t, onOpen],
  );
}

/** The roles grid's columns: name, permissions as chips, holders, built-in badge and actions. */
export function useRoleColumns({ onOpen, onDelete }: RoleColumnActions): GridColDef<RoleItem>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<RoleItem>[]>(
    () => [
      {
        field: 'name',
        headerName: t('roles.columns.name'),
        flex: 1,
        minWidth: 150,
        renderCell: ({ row, tabIndex }) => <OpenLink row={row} tabIndex={tabIndex} onOpen={onOpen} />,
      },
      {
        field: 'permissions',
        headerName: t('roles.columns.permissions'),
        flex: 3,
        minWidth: 260,
        // Sorted by how many permissions a role holds; admin holds them all.
        valueGetter: (_value, row) => (row.name === ADMIN_ROLE ? Number.MAX_SAFE_INTEGER : row.permissions.length),
        renderCell: ({ row }) => <PermissionChips permissions={row.permissions} all={row.name === ADMIN_ROLE} />,
      },
      // Counts are not typed 'number': that aligns cells and headers to opposite sides in Arabic.
      { field: 'user_count', headerName: t('roles.columns.holders'), width: 110 },
      {
        field: 'builtin',
        headerName: t('roles.columns.kind'),
        width: 120,
        valueGetter: (_value, row) => (row.builtin ? t('roles.builtin') : t('roles.custom')),
        renderCell: ({ row }) => <RoleKind builtin={row.builtin} />,
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
            label={t('roles.open', { name: row.name })}
            onClick={() => onOpen(row)}
          />,
          ...(onDelete && !row.builtin
            ? [
                <GridActionsCellItem
                  key="delete"
                  icon={<DeleteOutlined />}
                  label={t('roles.delete', { name: row.name })}
                  onClick={() => onDelete(row)}
                />,
              ]
            : []),
        ],
      },
    ],
    [t, onOpen, onDelete],
  );
}

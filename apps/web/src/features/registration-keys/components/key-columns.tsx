import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionChips } from '../../../components/permissions/permission-chips';
import { formatDateTime } from '../../../lib/dates';
import type { KeyItem } from '../api/list-keys';

/** The keys grid's columns: description, permissions, who created it and when, last use, delete. */
export function useKeyColumns(onDelete: (key: KeyItem) => void): GridColDef<KeyItem>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<KeyItem>[]>(
    () => [
      { field: 'description', headerName: t('registrationKeys.columns.description'), flex: 2, minWidth: 180 },
      {
        field: 'permissions',
        headerName: t('registrationKeys.columns.permissions'),
        flex: 2,
        minWidth: 200,
        valueGetter: (_value, row) => row.permissions.length,
        renderCell: ({ row }) => <PermissionChips permissions={row.permissions} />,
      },
      {
        field: 'created',
        headerName: t('registrationKeys.columns.created'),
        flex: 1,
        minWidth: 150,
        valueFormatter: (value: string) => formatDateTime(value),
      },
      {
        field: 'created_by',
        headerName: t('registrationKeys.columns.createdBy'),
        flex: 1.3,
        minWidth: 160,
        valueFormatter: (value: string | null) => value ?? '-',
      },
      {
        field: 'last_used_at',
        headerName: t('registrationKeys.columns.lastUsed'),
        flex: 1,
        minWidth: 150,
        valueFormatter: (value: string | null) => (value ? formatDateTime(value) : t('registrationKeys.neverUsed')),
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: 90,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="delete"
            icon={<DeleteOutlined />}
            label={t('registrationKeys.delete', { description: row.description })}
            onClick={() => onDelete(row)}
          />,
        ],
      },
    ],
    // t changes with the language, so dates are formatted again after a switch.
    [t, onDelete],
  );
}

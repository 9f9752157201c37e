import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { DataGrid, GridActionsCellItem } from '@mui/x-data-grid';
import type { GridColDef, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import type { ReactElement } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { UserRow } from '../api/list-users';
import { ChipList } from './chip-list';
import { gridLocaleText } from './grid-locale';

/** What a row's action buttons ask the page to do. */
export type UserAction = 'roles' | 'reset' | 'delete';

/** Which row actions the signed-in user may take. */
export interface AllowedActions {
  roles: boolean;
  reset: boolean;
  delete: boolean;
}

/** Props of the server-paged user grid. */
export interface UsersGridProps {
  rows: readonly UserRow[];
  total: number;
  loading: boolean;
  paging: GridPaginationModel;
  onPagingChange: (model: GridPaginationModel) => void;
  sort: GridSortModel;
  onSortChange: (model: GridSortModel) => void;
  /** The signed-in user's email: their row says "You" and cannot be deleted. */
  me: string;
  allowed: AllowedActions;
  onAction: (action: UserAction, email: string) => void;
  noRowsLabel: string;
  /** Sized to its rows, without the paging footer: for when only one's own row can be shown. */
  compact?: boolean;
}

/** The user list: paging, sorting and search happen on the server, so 10,000 users stay smooth. */
export function UsersGrid(props: UsersGridProps) {
  const { t, i18n } = useTranslation();
  const { me, allowed, onAction } = props;
  const anyAction = allowed.roles || allowed.reset || allowed.delete;

  const columns = useMemo<GridColDef<UserRow>[]>(() => {
    const list: GridColDef<UserRow>[] = [
      {
        field: 'email',
        headerName: t('users.columns.email'),
        flex: 1.8,
        minWidth: 240,
        renderCell: ({ row }) => (
          <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            {/* An address reads left to right in every language; its start stays visible when cut. */}
            <Box component="span" dir="ltr" title={row.email} sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {row.email}
            </Box>
            {row.email === me ? <Chip label={t('users.you')} size="small" color="primary" /> : null}
          </Box>
        ),
      },
      {
        field: 'name',
        headerName: t('users.columns.name'),
        flex: 1,
        minWidth: 150,
        valueFormatter: (value: string | null) => value || '—',
      },
      {
        field: 'roles',
        headerName: t('users.columns.roles'),
        sortable: false,
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => <ChipList names={row.roles} emptyLabel={t('users.none')} color="primary" />,
      },
      {
        field: 'groups',
        headerName: t('users.columns.groups'),
        sortable: false,
        flex: 0.9,
        minWidth: 160,
        renderCell: ({ row }) => <ChipList names={row.groups} emptyLabel={t('users.none')} />,
      },
      {
        field: 'created_at',
        headerName: t('users.columns.created'),
        width: 160,
        valueFormatter: (value: string) => formatDateTime(value),
      },
    ];
    if (!anyAction) return list;
    const item = (action: UserAction, email: string, label: string, icon: ReactElement) => (
      <GridActionsCellItem
        key={action}
        icon={icon}
        label={label}
        title={label}
        onClick={() => onAction(action, email)}
      />
    );
    list.push({
      field: 'actions',
      type: 'actions',
      headerName: t('users.columns.actions'),
      width: 130,
      getActions: ({ row }) => [
        ...(allowed.roles
          ? [item('roles', row.email, t('users.actions.roles', { email: row.email }), <ManageAccountsOutlined />)]
          : []),
        ...(allowed.reset
          ? [item('reset', row.email, t('users.actions.reset', { email: row.email }), <LockResetOutlined />)]
          : []),
        ...(allowed.delete && row.email !== me
          ? [item('delete', row.email, t('users.actions.delete', { email: row.email }), <DeleteOutlined />)]
          : []),
      ],
    });
    return list;
  }, [t, me, allowed, anyAction, onAction]);

  return (
    <DataGrid
      label={t('users.gridLabel')}
      rows={props.rows}
      columns={columns}
      rowCount={props.total}
      loading={props.loading}
      paginationMode="server"
      sortingMode="server"
      filterMode="server"
      disableColumnFilter
      disableRowSelectionOnClick
      paginationModel={props.paging}
      onPaginationModelChange={props.onPagingChange}
      pageSizeOptions={[25, 50, 100]}
      sortModel={props.sort}
      onSortModelChange={props.onSortChange}
      hideFooter={props.compact}
      autoHeight={props.compact}
      localeText={{ ...gridLocaleText(i18n.language), noRowsLabel: props.noRowsLabel }}
      slotProps={{ loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' } }}
      sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
    />
  );
}

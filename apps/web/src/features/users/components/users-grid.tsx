import { DataGrid } from '@mui/x-data-grid';
import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../api/list-users';
import { gridLocaleText } from './grid-locale';
import type { AllowedActions, UserAction } from './user-columns';
import { useUserColumns } from './user-columns';

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
  const columns = useUserColumns(props.me, props.allowed, props.onAction);

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
      // Rows as tall as their chips: the role and group chips wrap rather than run out of the cell.
      getRowHeight={() => 'auto'}
      sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1, minHeight: 52 } }}
    />
  );
}

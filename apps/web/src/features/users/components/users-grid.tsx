import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { DataGrid } from '@mui/x-data-grid';
import type { GridColumnVisibilityModel, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../api/list-users';
import { columnsWidth, overflows, useWidth } from '../../../components/data-table/columns-fit';
import { gridLocaleText } from '../../../components/data-table/grid-locale';
import type { AllowedActions, UserAction } from './user-columns';
import { useUserColumns } from './user-columns';
import { narrowActions, NO_LAST_SEPARATOR, WRAPPED_ACTIONS } from '../../../components/data-table/grid-styles';

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

/**
 * Below lg (a phone, a tablet, a window without the sidebar), and wherever the grid is narrower than
 * the columns' least widths (a laptop's 1280 px beside the sidebar), the columns do not fit: one
 * summary column (email, name, roles, groups, second factors) beside the actions, as the sessions
 * list does, so the grid never scrolls sideways and the actions stay in view.
 */
const NARROW: GridColumnVisibilityModel = {
  email: false,
  name: false,
  roles: false,
  groups: false,
  two_factor: false,
  created_at: false,
};
/** A desktop: a column per fact, no summary. */
const WIDE: GridColumnVisibilityModel = { summary: false };

/** The user list: paging, sorting and search happen on the server, so 10,000 users stay smooth. */
export function UsersGrid(props: UsersGridProps) {
  const { t, i18n } = useTranslation();
  const columns = useUserColumns(props.me, props.allowed, props.onAction);
  // The default theme's breakpoints where no theme is provided (the page's tests).
  const small = useMediaQuery(useTheme().breakpoints.down('lg'));
  // Columns hidden from a column's menu, per layout, over the layout's defaults (this page only).
  const [chosen, setChosen] = useState<Partial<Record<'narrow' | 'wide', GridColumnVisibilityModel>>>({});
  // What the wide layout's shown columns need (fewer when some are hidden) against the grid's width.
  const [gridRef, gridWidth] = useWidth();
  const needed = useMemo(() => columnsWidth(columns, { ...WIDE, ...chosen.wide }), [columns, chosen.wide]);
  const narrow = small || overflows(needed, gridWidth);
  const layout = narrow ? 'narrow' : 'wide';
  const shown = useMemo(() => (narrow ? narrowActions(columns) : columns), [narrow, columns]);

  return (
    <DataGrid
      ref={gridRef}
      label={t('users.gridLabel')}
      rows={props.rows}
      columns={shown}
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
      columnVisibilityModel={{ ...(narrow ? NARROW : WIDE), ...chosen[layout] }}
      onColumnVisibilityModelChange={(model) => setChosen((all) => ({ ...all, [layout]: model }))}
      hideFooter={props.compact}
      autoHeight={props.compact}
      localeText={{ ...gridLocaleText(i18n.language), noRowsLabel: props.noRowsLabel }}
      slotProps={{ loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' } }}
      // Rows as tall as their chips: the role and group chips wrap rather than run out of the cell.
      getRowHeight={() => 'auto'}
      sx={{
        border: 0,
        '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1, minHeight: 52 },
        ...NO_LAST_SEPARATOR,
        ...WRAPPED_ACTIONS,
      }}
    />
  );
}

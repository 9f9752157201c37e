import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { GridColDef, GridColumnVisibilityModel, GridSortModel, GridValidRowModel } from '@mui/x-data-grid';
import { DataGrid } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { columnsToHide, useWidth } from './columns-fit';
import { gridLocaleText } from './grid-locale';
import { filterRows } from './search';
import { ErrorState } from './table-states';
import { narrowActions, NO_LAST_SEPARATOR, WRAPPED_ACTIONS } from './grid-styles';

/**
 * A row told in one cell, shown where the columns do not fit: below lg (a phone, a tablet, a window
 * without the sidebar), and wherever the grid is narrower than its columns' least widths (a laptop's
 * 1280 px beside the sidebar). The summary stands alone beside the actions, so the list never
 * scrolls sideways and the actions stay in view (as the sessions and users lists do).
 */
export interface RowSummary<R> {
  /** The summary column's header, such as "Tunnel". */
  header: string;
  /** The cell; tabIndex is the grid's for the cell (its one focusable control takes it). */
  render: (row: R, tabIndex: 0 | -1) => ReactNode;
  /** What a sort on the summary column orders by, such as the name. */
  sortValue: (row: R) => string | number;
}

/** Props of a client-side list: rows, columns, the texts a search looks in, and its states. */
export interface DataTableProps<R extends GridValidRowModel> {
  /** Accessible name of the grid, such as "Roles". */
  label: string;
  /** Label of the search box, such as "Search roles". */
  searchLabel: string;
  /** The rows; undefined while the first load runs. */
  rows: readonly R[] | undefined;
  columns: GridColDef<R>[];
  getRowId: (row: R) => string;
  /** The texts of a row the search box matches against. */
  searchTexts: (row: R) => readonly string[];
  loading: boolean;
  /** The load's error, if it failed; shown with a retry button. */
  error: unknown;
  onRetry: () => void;
  /** Shown instead of the grid when there are no rows at all: say what to do next. */
  empty: ReactNode;
  /** Called when Enter is pressed on a row's cell (keyboard way to open its detail). */
  onOpenRow?: (row: R) => void;
  /** The sort before the user picks one. */
  initialSort?: GridSortModel;
  /** Controls beside the search box. */
  toolbar?: ReactNode;
  /**
   * The one column shown beside the actions below lg, or where the columns do not fit the grid's
   * width; without it every column always shows (and their least widths must fit a 1024 px window).
   */
  summary?: RowSummary<R>;
  /**
   * Columns the list can do without, the first to go first: where the columns do not fit the grid's
   * width, these are hidden one by one until the rest fit; only if they still do not, the summary shows.
   */
  optional?: readonly string[];
}

/**
 * The columns and which of them show: below lg only the summary and the actions (narrowed, their
 * buttons wrapping); from lg the columns without the summary.
 */
function useLayout<R extends GridValidRowModel>(
  columns: GridColDef<R>[],
  summary: RowSummary<R> | undefined,
  narrow: boolean,
  hide: readonly string[],
): { columns: GridColDef<R>[]; visibility: GridColumnVisibilityModel } {
  return useMemo(() => {
    const dropped: GridColumnVisibilityModel = Object.fromEntries(hide.map((field) => [field, false]));
    if (!summary) return { columns, visibility: dropped };
    const summaryColumn: GridColDef<R> = {
      field: 'summary',
      headerName: summary.header,
      flex: 1,
      minWidth: 0,
      valueGetter: (_value, row) => summary.sortValue(row),
      renderCell: ({ row, tabIndex }) => summary.render(row, tabIndex),
    };
    if (!narrow) return { columns: [summaryColumn, ...columns], visibility: { ...dropped, summary: false } };
    const shown = narrowActions(columns);
    const visibility: GridColumnVisibilityModel = {};
    for (const column of columns) if (column.field !== 'actions') visibility[column.field] = false;
    return { columns: [summaryColumn, ...shown], visibility };
  }, [columns, summary, narrow, hide]);
}

const PAGE_SIZES = [25, 50, 100];
const NONE: readonly string[] = [];

/** A sortable, searchable list on MUI's data grid, with loading, empty and error states. */
export function DataTable<R extends GridValidRowModel>(props: DataTableProps<R>) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const { rows, searchTexts, onOpenRow } = props;
  const shown = useMemo(() => filterRows(rows ?? [], query, searchTexts), [rows, query, searchTexts]);
  const localeText = useMemo(
    () => ({ ...gridLocaleText(i18n.language), noRowsLabel: t('common.noResults') }),
    [i18n.language, t],
  );
  // The default theme's breakpoints where no theme is provided (the pages' tests).
  const small = useMediaQuery(useTheme().breakpoints.down('lg'), { noSsr: true });
  // Wider than lg, the summary too when the columns would not fit beside the sidebar.
  const [gridRef, gridWidth] = useWidth();
  const hide = useMemo(
    () => columnsToHide(props.columns, props.optional ?? NONE, gridWidth),
    [props.columns, props.optional, gridWidth],
  );
  const narrow = small || (props.summary !== undefined && hide === undefined);
  const { columns, visibility } = useLayout(props.columns, props.summary, narrow, narrow ? NONE : (hide ?? NONE));
  const isEmpty = !props.loading && !props.error && rows !== undefined && rows.length === 0;

  let body: ReactNode;
  if (props.error && rows === undefined) body = <ErrorState error={props.error} onRetry={props.onRetry} />;
  else if (isEmpty) body = props.empty;
  else
    body = (
      <DataGrid<R>
        ref={gridRef}
        rows={shown}
        columns={columns}
        columnVisibilityModel={visibility}
        getRowId={props.getRowId}
        loading={props.loading}
        aria-label={props.label}
        autoHeight
        getRowHeight={() => 'auto'}
        disableRowSelectionOnClick
        disableColumnMenu
        pageSizeOptions={PAGE_SIZES}
        initialState={{
          pagination: { paginationModel: { pageSize: PAGE_SIZES[0] ?? 25 } },
          sorting: { sortModel: props.initialSort ?? [] },
        }}
        localeText={localeText}
        slotProps={{ loadingOverlay: { variant: 'skeleton', noRowsVariant: 'skeleton' } }}
        onCellKeyDown={(params, event) => {
          if (event.key !== 'Enter' || params.field === 'actions' || !onOpenRow) return;
          event.preventDefault();
          // The grid types its events' rows loosely; they are this table's rows.
          onOpenRow(params.row as R);
        }}
        sx={{
          bgcolor: 'background.paper',
          '& .MuiDataGrid-cell': { py: 1, display: 'flex', alignItems: 'center' },
          '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
          ...WRAPPED_ACTIONS,
          ...NO_LAST_SEPARATOR,
        }}
      />
    );

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          type="search"
          size="small"
          label={props.searchLabel}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          disabled={isEmpty}
          sx={{ minWidth: 260, flex: { xs: 1, sm: '0 1 340px' } }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchOutlined fontSize="small" aria-hidden />
                </InputAdornment>
              ),
            },
          }}
        />
        {props.toolbar}
      </Box>
      {body}
    </Box>
  );
}

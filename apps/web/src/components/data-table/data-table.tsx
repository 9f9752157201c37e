import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { GridColDef, GridSortModel, GridValidRowModel } from '@mui/x-data-grid';
import { DataGrid } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gridLocaleText } from './grid-locale';
import { filterRows } from './search';
import { ErrorState } from './table-states';

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
}

const PAGE_SIZES = [25, 50, 100];

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
  const isEmpty = !props.loading && !props.error && rows !== undefined && rows.length === 0;

  let body: ReactNode;
  if (props.error && rows === undefined) body = <ErrorState error={props.error} onRetry={props.onRetry} />;
  else if (isEmpty) body = props.empty;
  else
    body = (
      <DataGrid<R>
        rows={shown}
        columns={props.columns}
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

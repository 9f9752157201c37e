import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { DataGrid } from '@mui/x-data-grid';
import type { GridColumnVisibilityModel, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { gridLocaleText } from '../../../components/data-table/grid-locale';
import type { SessionRow } from '../derive';
import type { SessionAction } from './session-columns';
import { useSessionColumns } from './session-columns';
import { PAGE_SIZES } from './use-cursor-paging';

/** Props of the server-paged session grid. */
export interface SessionsGridProps {
  rows: readonly SessionRow[];
  loading: boolean;
  paging: GridPaginationModel;
  /** True when the server gave a cursor for a next page. */
  hasNextPage: boolean;
  onPagingChange: (model: GridPaginationModel) => void;
  sort: GridSortModel;
  onSortChange: (model: GridSortModel) => void;
  onAction: (action: SessionAction, row: SessionRow) => void;
  noRowsLabel: string;
}

/** On a phone: the status and one cell with host, user and duration; the rest is in the detail panel. */
const NARROW: GridColumnVisibilityModel = {
  type: false,
  hostname: false,
  user: false,
  started_on: false,
  ended_on: false,
  duration: false,
  tunnel: false,
  actions: false,
};
/** On a tablet: without the end time and the tunnel. */
const MEDIUM: GridColumnVisibilityModel = { ended_on: false, tunnel: false, summary: false };
/** On a desktop: every column but the phone's summary. */
const WIDE: GridColumnVisibilityModel = { summary: false };

/**
 * The session list: keyset pages from the server (the count of all matches is not asked for, so
 * a page stays fast at a million sessions), sorted by the server. A click or Enter on a row opens
 * its detail.
 */
export function SessionsGrid(props: SessionsGridProps) {
  const { t, i18n } = useTranslation();
  const columns = useSessionColumns(props.onAction);
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const medium = useMediaQuery((theme: Theme) => theme.breakpoints.down('lg'));
  const visibility = narrow ? NARROW : medium ? MEDIUM : WIDE;
  const localeText = useMemo(
    () => ({ ...gridLocaleText(i18n.language), noRowsLabel: props.noRowsLabel }),
    [i18n.language, props.noRowsLabel],
  );
  const { onAction } = props;
  // Unknown (-1) while there is a next page; on the last page the count is known. Given each
  // render (not left to the grid), so a count learnt on one filter's last page never sticks.
  const rowCount = props.hasNextPage ? -1 : props.paging.page * props.paging.pageSize + props.rows.length;

  return (
    <DataGrid<SessionRow>
      label={t('sessions.gridLabel')}
      rows={props.rows}
      columns={columns}
      rowCount={rowCount}
      paginationMeta={{ hasNextPage: props.hasNextPage }}
      loading={props.loading}
      paginationMode="server"
      sortingMode="server"
      filterMode="server"
      disableColumnFilter
      disableRowSelectionOnClick
      sortingOrder={['desc', 'asc']}
      paginationModel={props.paging}
      onPaginationModelChange={props.onPagingChange}
      pageSizeOptions={PAGE_SIZES}
      sortModel={props.sort}
      onSortModelChange={props.onSortChange}
      columnVisibilityModel={visibility}
      rowHeight={narrow ? 76 : 52}
      localeText={localeText}
      // The grid types its events' rows loosely; they are this grid's rows.
      onRowClick={({ row }) => onAction('details', row as SessionRow)}
      onCellKeyDown={(params, event) => {
        if (event.key !== 'Enter' || params.field === 'actions') return;
        event.preventDefault();
        onAction('details', params.row as SessionRow);
      }}
      slotProps={{ loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' } }}
      sx={{
        border: 0,
        '& .MuiDataGrid-row': { cursor: 'pointer' },
        '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
        '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
      }}
    />
  );
}

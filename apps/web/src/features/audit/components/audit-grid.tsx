import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { DataGrid } from '@mui/x-data-grid';
import type { GridColDef, GridColumnVisibilityModel, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { columnsWidth, overflows, useWidth } from '../../../components/data-table/columns-fit';
import { gridLocaleText } from '../../../components/data-table/grid-locale';
import { PAGE_SIZES } from '../../../components/data-table/use-cursor-paging';
import type { AuditRow } from '../api/list-audit';
import { formatAuditTime } from './audit-time';
import { OutcomeChip } from './outcome-chip';
import { NO_LAST_SEPARATOR } from '../../../components/data-table/grid-styles';

/** Props of the server-paged audit grid. */
export interface AuditGridProps {
  rows: readonly AuditRow[];
  loading: boolean;
  paging: GridPaginationModel;
  hasNextPage: boolean;
  onPagingChange: (model: GridPaginationModel) => void;
  order: 'asc' | 'desc';
  onOrderChange: (order: 'asc' | 'desc') => void;
  onOpen: (row: AuditRow) => void;
  noRowsLabel: string;
}

/** Identifiers and addresses read left to right in every language; cut short, the title has them whole. */
const ltr = (text: string | null) => (
  <Box component="span" dir="ltr" title={text ?? undefined} sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
    {text ?? '-'}
  </Box>
);

/** On a phone: one cell with time, action, who and outcome; the rest in the detail panel. */
const NARROW: GridColumnVisibilityModel = {
  at: false,
  actor: false,
  action: false,
  outcome: false,
  target: false,
  source: false,
};
/** Below lg, and wherever the wide layout does not fit beside the sidebar: all but the source. */
const MEDIUM: GridColumnVisibilityModel = { source: false, summary: false };
const WIDE: GridColumnVisibilityModel = { summary: false };

function useColumns(): GridColDef<AuditRow>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<AuditRow>[]>(
    () => [
      {
        field: 'at',
        headerName: t('audit.columns.at'),
        width: 190,
        valueFormatter: (value: string) => formatAuditTime(value),
      },
      {
        field: 'actor',
        headerName: t('audit.columns.actor'),
        flex: 1.2,
        minWidth: 170,
        sortable: false,
        renderCell: ({ row }) => ltr(row.actor),
      },
      {
        field: 'action',
        headerName: t('audit.columns.action'),
        flex: 1,
        minWidth: 160,
        sortable: false,
        renderCell: ({ row }) => ltr(row.action),
      },
      {
        field: 'outcome',
        headerName: t('audit.columns.outcome'),
        width: 120,
        sortable: false,
        renderCell: ({ row }) => <OutcomeChip outcome={row.outcome} />,
      },
      {
        field: 'target',
        headerName: t('audit.columns.target'),
        flex: 1,
        minWidth: 140,
        sortable: false,
        renderCell: ({ row }) => ltr(row.target),
      },
      {
        field: 'source',
        headerName: t('audit.columns.source'),
        width: 140,
        sortable: false,
        renderCell: ({ row }) => ltr(row.source),
      },
      {
        field: 'summary',
        headerName: t('audit.columns.entry'),
        flex: 1,
        sortable: false,
        renderCell: ({ row }) => (
          // Two lines that fit the phone's row: the action and its outcome, then when and who.
          <Box sx={{ minWidth: 0, width: '100%' }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 0 }} noWrap title={row.action}>
                {ltr(row.action)}
              </Typography>
              <OutcomeChip outcome={row.outcome} />
            </Box>
            {/* A long email is cut on a phone: the title holds the line whole. */}
            <Typography
              variant="caption"
              color="text.secondary"
              component="div"
              noWrap
              title={`${formatAuditTime(row.at)} · ${row.actor ?? ''}`}
            >
              {formatAuditTime(row.at)} · {ltr(row.actor)}
            </Typography>
          </Box>
        ),
      },
    ],
    [t],
  );
}

/**
 * The audit trail: keyset pages from the server (no count of all matches, so a page stays fast at
 * a million entries), ordered by time on the server. A click or Enter on a row opens its detail.
 */
export function AuditGrid(props: AuditGridProps) {
  const { t, i18n } = useTranslation();
  const columns = useColumns();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('lg'));
  // Beside the sidebar at about 1280 px every column does not fit: the source (in the entry's detail) goes first.
  const [gridRef, gridWidth] = useWidth();
  const medium = small || overflows(columnsWidth(columns, WIDE), gridWidth);
  const localeText = useMemo(
    () => ({ ...gridLocaleText(i18n.language), noRowsLabel: props.noRowsLabel }),
    [i18n.language, props.noRowsLabel],
  );
  const sortModel = useMemo<GridSortModel>(() => [{ field: 'at', sort: props.order }], [props.order]);
  const rowCount = props.hasNextPage ? -1 : props.paging.page * props.paging.pageSize + props.rows.length;
  const { onOpen, onOrderChange } = props;

  return (
    <DataGrid<AuditRow>
      ref={gridRef}
      label={t('audit.gridLabel')}
      rows={props.rows}
      columns={columns}
      rowCount={rowCount}
      paginationMeta={{ hasNextPage: props.hasNextPage }}
      loading={props.loading}
      paginationMode="server"
      sortingMode="server"
      filterMode="server"
      disableColumnFilter
      disableColumnMenu
      disableRowSelectionOnClick
      sortingOrder={['desc', 'asc']}
      paginationModel={props.paging}
      onPaginationModelChange={props.onPagingChange}
      pageSizeOptions={PAGE_SIZES}
      sortModel={sortModel}
      onSortModelChange={(model) => onOrderChange(model[0]?.sort === 'asc' ? 'asc' : 'desc')}
      columnVisibilityModel={narrow ? NARROW : medium ? MEDIUM : WIDE}
      rowHeight={narrow ? 64 : 52}
      localeText={localeText}
      onRowClick={({ row }) => onOpen(row as AuditRow)}
      onCellKeyDown={(params, event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        onOpen(params.row as AuditRow);
      }}
      slotProps={{ loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' } }}
      sx={{
        border: 0,
        '& .MuiDataGrid-row': { cursor: 'pointer' },
        '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
        '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
        ...NO_LAST_SEPARATOR,
      }}
    />
  );
}

import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import Button from '@mui/material/Button';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { DataGrid, GridToolbarColumnsButton, GridToolbarContainer, GridToolbarDensitySelector } from '@mui/x-data-grid';
import type { GridColumnVisibilityModel, GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gridLocaleText } from '../../../components/data-table/grid-locale';
import { readUserJson, removeUserKey, STORAGE_KEYS, writeUserJson } from '../../../lib/storage';
import { useSession } from '../../../lib/use-session';
import type { SessionRow } from '../derive';
import type { SessionAction } from './session-columns';
import { useSessionColumns } from './session-columns';
import { PAGE_SIZES } from './use-cursor-paging';
import { NO_LAST_SEPARATOR } from '../../../components/data-table/grid-styles';

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

/**
 * Which columns show by default. The actions (Watch live, Replay, Details) must always be in view,
 * and the free grid cannot pin a column: so the default columns fit the screen's content area
 * (about 1070 px at 1440 px wide, next to the sidebar) with the actions last, and the rest can be
 * added from the toolbar's Columns panel (the grid then scrolls sideways; the actions stay, sticky).
 */
const NARROW: GridColumnVisibilityModel = {
  status: false,
  type: false,
  kind: false,
  hostname: false,
  user: false,
  started_on: false,
  ended_on: false,
  duration: false,
  tunnel: false,
};
/** A desktop up to 1536 px: status, type, host, user, start, duration and the actions. */
const WIDE: GridColumnVisibilityModel = { kind: false, ended_on: false, tunnel: false, summary: false };
/** A wide desktop: the end time too. */
const WIDER: GridColumnVisibilityModel = { kind: false, tunnel: false, summary: false };

declare module '@mui/x-data-grid' {
  interface ToolbarPropsOverrides {
    /** Puts the columns back to the layout's defaults and forgets the saved choice. */
    onResetColumns?: () => void;
    /** True when the columns are the defaults already (nothing to reset). */
    columnsAreDefault?: boolean;
  }
}

/** The layouts the columns are chosen for, each with its own defaults and saved choice. */
type Layout = 'narrow' | 'wide' | 'wider';
type ChosenColumns = Partial<Record<Layout, GridColumnVisibilityModel>>;

/** A saved choice read back only when it is a map of layouts to column/boolean maps (storage is user-editable). */
function savedColumns(value: unknown): ChosenColumns {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: ChosenColumns = {};
  for (const layout of ['narrow', 'wide', 'wider'] as const) {
    const model = (value as Record<string, unknown>)[layout];
    if (typeof model !== 'object' || model === null || Array.isArray(model)) continue;
    const entries = Object.entries(model as Record<string, unknown>).filter(
      (entry): entry is [string, boolean] => typeof entry[1] === 'boolean',
    );
    out[layout] = Object.fromEntries(entries);
  }
  return out;
}

/** The desktop toolbar: the Columns panel, the density, and Reset columns. */
function SessionsToolbar(props: { onResetColumns?: () => void; columnsAreDefault?: boolean }) {
  const { t } = useTranslation();
  return (
    <GridToolbarContainer>
      <GridToolbarColumnsButton />
      <GridToolbarDensitySelector />
      <Button
        size="small"
        startIcon={<RestartAltOutlined />}
        onClick={props.onResetColumns}
        disabled={props.columnsAreDefault}
      >
        {t('sessions.columnsReset')}
      </Button>
    </GridToolbarContainer>
  );
}

/**
 * The session list: keyset pages from the server (the count of all matches is not asked for, so
 * a page stays fast at a million sessions), sorted by the server. A click or Enter on a row opens
 * its detail.
 */
export function SessionsGrid(props: SessionsGridProps) {
  const { t, i18n } = useTranslation();
  const columns = useSessionColumns(props.onAction);
  // Below lg the sidebar (or the phone's width) leaves too little for separate columns.
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('lg'));
  const wider = useMediaQuery((theme: Theme) => theme.breakpoints.up('xl'));
  const layout: Layout = narrow ? 'narrow' : wider ? 'wider' : 'wide';
  // Columns the user showed or hid in the Columns panel, per layout, over its defaults: kept in
  // this browser per signed-in user (one shared browser gives each administrator their own).
  const userKey = useSession().user?.email ?? null;
  const [chosen, setChosen] = useState<ChosenColumns>(() =>
    userKey === null ? {} : savedColumns(readUserJson<unknown>(STORAGE_KEYS.sessionColumns, userKey)),
  );
  const choose = useCallback(
    (model: GridColumnVisibilityModel) =>
      setChosen((all) => {
        const next = { ...all, [layout]: model };
        if (userKey !== null) writeUserJson(STORAGE_KEYS.sessionColumns, userKey, next);
        return next;
      }),
    [layout, userKey],
  );
  const resetColumns = useCallback(() => {
    setChosen({});
    if (userKey !== null) removeUserKey(STORAGE_KEYS.sessionColumns, userKey);
  }, [userKey]);
  const visibility = useMemo(
    () => ({ ...(narrow ? NARROW : wider ? WIDER : WIDE), ...chosen[layout] }),
    [narrow, wider, layout, chosen],
  );
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
      // Every column is drawn (there are ten), so the sticky actions exist when scrolled to the start.
      columnBufferPx={2000}
      disableRowSelectionOnClick
      sortingOrder={['desc', 'asc']}
      paginationModel={props.paging}
      onPaginationModelChange={props.onPagingChange}
      pageSizeOptions={PAGE_SIZES}
      sortModel={props.sort}
      onSortModelChange={props.onSortChange}
      columnVisibilityModel={visibility}
      onColumnVisibilityModelChange={choose}
      // The Columns panel on a desktop, offering the desktop's columns (not the phone's summary or the actions).
      showToolbar={!narrow}
      slots={{ toolbar: SessionsToolbar }}
      slotProps={{
        columnsManagement: {
          // The panel's own Reset goes back to the columns at the grid's start (the saved choice);
          // the toolbar's Reset columns goes back to the defaults.
          disableResetButton: true,
          getTogglableColumns: (all) =>
            all.filter((column) => column.field !== 'summary' && column.field !== 'actions').map((c) => c.field),
        },
        loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' },
        toolbar: { onResetColumns: resetColumns, columnsAreDefault: Object.keys(chosen).length === 0 },
      }}
      rowHeight={narrow ? 76 : 52}
      localeText={localeText}
      // The grid types its events' rows loosely; they are this grid's rows.
      onRowClick={({ row }) => onAction('details', row as SessionRow)}
      onCellKeyDown={(params, event) => {
        if (event.key !== 'Enter' || params.field === 'actions') return;
        event.preventDefault();
        onAction('details', params.row as SessionRow);
      }}
      sx={{
        border: 0,
        '& .MuiDataGrid-row': { cursor: 'pointer' },
        '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
        '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
        ...NO_LAST_SEPARATOR,
        // Columns added from the panel can overflow: the grid scrolls sideways, and the actions stay
        // at the end side in view (sticky, as the paid grid pins; every column is rendered for it).
        '& .MuiDataGrid-cell[data-field="actions"], & .MuiDataGrid-columnHeader[data-field="actions"]': {
          position: 'sticky',
          insetInlineEnd: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          borderInlineStart: 1,
          borderColor: 'divider',
        },
      }}
    />
  );
}

import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';

/**
 * The data grid's last column header keeps a resize handle that stands 5 px past the grid's edge,
 * so on a phone the grid scrolled sideways by that much: every grid hides it (nothing follows the
 * last column to resize against). Likewise a header's column-menu button, hidden in a box of no
 * width until the header is hovered, stood 23 px past the edge on the last column: the box clips it.
 */
export const NO_LAST_SEPARATOR = {
  '& .MuiDataGrid-columnHeader--last .MuiDataGrid-columnSeparator': { display: 'none' },
  '& .MuiDataGrid-menuIcon': { overflow: 'hidden' },
} as const;

/** Below lg, the actions column at most this wide: its buttons wrap onto more lines instead. */
const NARROW_ACTIONS_WIDTH = 112;

/**
 * The columns with the actions column narrowed for a phone (below lg), so that one summary column
 * beside it keeps most of the width; WRAPPED_ACTIONS lets its buttons wrap (rows of auto height).
 */
export function narrowActions<R extends GridValidRowModel>(columns: GridColDef<R>[]): GridColDef<R>[] {
  return columns.map((column) =>
    column.field === 'actions'
      ? { ...column, flex: 0, minWidth: 0, width: Math.min(column.width ?? 100, NARROW_ACTIONS_WIDTH) }
      : column,
  );
}

/** A narrowed actions column puts its buttons on more lines; rows of auto height grow to fit. */
export const WRAPPED_ACTIONS = { '& .MuiDataGrid-actionsCell': { flexWrap: 'wrap' } } as const;

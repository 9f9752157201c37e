import type { GridPaginationModel } from '@mui/x-data-grid';
import { useCallback, useState } from 'react';

/** Page sizes the list offers. */
export const PAGE_SIZES = [25, 50, 100];

interface PagingState {
  /** The filters and order the pages belong to; a change starts again on the first page. */
  key: string;
  page: number;
  pageSize: number;
  /** cursors[n] fetches page n: undefined for the first, then each page's next_cursor. */
  cursors: (string | undefined)[];
}

/**
 * Keyset paging for the grid: a page is fetched with the cursor the page before answered, so the
 * grid may step forward only once that cursor is known, and back to any page it has seen.
 */
export function useCursorPaging(key: string) {
  const [state, setState] = useState<PagingState>({
    key,
    page: 0,
    pageSize: PAGE_SIZES[0] ?? 25,
    cursors: [undefined],
  });
  const current: PagingState = state.key === key ? state : { ...state, key, page: 0, cursors: [undefined] };

  /** Call with the grid's new model and the next_cursor of the page on screen. */
  const onChange = useCallback(
    (model: GridPaginationModel, nextCursor: string | null) => {
      setState((previous) => {
        const base = previous.key === key ? previous : { ...previous, key, page: 0, cursors: [undefined] };
        if (model.pageSize !== base.pageSize) return { key, page: 0, pageSize: model.pageSize, cursors: [undefined] };
        if (model.page === base.page + 1 && nextCursor !== null) {
          const cursors = base.cursors.slice(0, model.page);
          cursors[model.page] = nextCursor;
          return { ...base, page: model.page, cursors };
        }
        if (model.page < base.page && model.page >= 0) return { ...base, page: model.page };
        return base;
      });
    },
    [key],
  );

  return {
    paging: { page: current.page, pageSize: current.pageSize },
    cursor: current.cursors[current.page],
    onChange,
  };
}

import type { GridColDef, GridColumnVisibilityModel, GridValidRowModel } from '@mui/x-data-grid';
import { useCallback, useState } from 'react';

/** MUI's defaults: a column without a width is 100 px; a flex column shrinks to 50 px at most. */
const DEFAULT_WIDTH = 100;
const DEFAULT_MIN_WIDTH = 50;
/** The grid's border, one pixel each side. */
const BORDER = 2;

/**
 * The width a grid's shown columns need before it scrolls sideways: each fixed column's width and
 * each flex column's minimum width (flex columns shrink to it, no further), plus the border.
 */
export function columnsWidth<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  visibility: GridColumnVisibilityModel = {},
): number {
  let sum = BORDER;
  for (const column of columns) {
    if (visibility[column.field] === false) continue;
    sum += column.flex ? (column.minWidth ?? DEFAULT_MIN_WIDTH) : (column.width ?? DEFAULT_WIDTH);
  }
  return sum;
}

/**
 * The width of the element the returned ref is put on, kept current as it resizes; 0 until it is
 * measured (and where the browser cannot measure, as in the unit tests' jsdom).
 */
export function useWidth(): [(element: HTMLElement | null) => (() => void) | undefined, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((element: HTMLElement | null) => {
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * True when a grid's columns need more than the grid's measured width (it would scroll sideways,
 * its last columns and the actions out of view): the list then shows its one-cell summary instead.
 * Between lg and about 1440 px, beside the sidebar, the wide layout's columns did not fit (issue 20).
 */
export function overflows(needed: number, width: number): boolean {
  return width > 0 && needed > width;
}

/**
 * Which of the optional columns to hide so that the rest fit `width`: none when all fit (or the width
 * is not measured), the fewest that make them fit, or undefined when even without them they do not.
 */
export function columnsToHide<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  optional: readonly string[],
  width: number,
): string[] | undefined {
  const hidden: GridColumnVisibilityModel = {};
  if (!overflows(columnsWidth(columns), width)) return [];
  for (const [index, field] of optional.entries()) {
    hidden[field] = false;
    if (!overflows(columnsWidth(columns, hidden), width)) return optional.slice(0, index + 1);
  }
  return undefined;
}

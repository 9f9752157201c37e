import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { columnsToHide, columnsWidth, overflows } from './columns-fit';

const columns: GridColDef[] = [
  { field: 'name', flex: 1.6, minWidth: 140 },
  { field: 'type', width: 90 },
  { field: 'group', flex: 1 },
  { field: 'plain' },
  { field: 'actions', width: 200 },
];

describe('columnsWidth', () => {
  it('adds fixed widths and flex minimums (MUI defaults where unset) and the border', () => {
    // 140 + 90 + 50 (flex default minimum) + 100 (default width) + 200 + 2.
    expect(columnsWidth(columns)).toBe(582);
  });

  it('leaves out hidden columns', () => {
    expect(columnsWidth(columns, { type: false, plain: false, group: true })).toBe(392);
  });
});

describe('overflows', () => {
  it('is true only when a measured grid is narrower than its columns need', () => {
    expect(overflows(1200, 910)).toBe(true);
    expect(overflows(900, 910)).toBe(false);
    expect(overflows(910, 910)).toBe(false);
    // Not measured yet (or no layout, as in jsdom): the breakpoint alone decides.
    expect(overflows(1200, 0)).toBe(false);
  });
});

describe('columnsToHide', () => {
  // 582 px in all; without `plain` 482, without `type` too 392.
  it('hides nothing when the columns fit or the grid is not measured', () => {
    expect(columnsToHide(columns, ['plain', 'type'], 600)).toEqual([]);
    expect(columnsToHide(columns, ['plain', 'type'], 0)).toEqual([]);
  });

  it('hides the optional columns in their order, only as many as it takes', () => {
    expect(columnsToHide(columns, ['plain', 'type'], 500)).toEqual(['plain']);
    expect(columnsToHide(columns, ['plain', 'type'], 400)).toEqual(['plain', 'type']);
  });

  it('answers undefined (the summary shows) when even without them the columns do not fit', () => {
    expect(columnsToHide(columns, ['plain', 'type'], 300)).toBeUndefined();
    expect(columnsToHide(columns, [], 300)).toBeUndefined();
  });
});

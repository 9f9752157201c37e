import { describe, expect, it } from 'vitest';
import { listQuery } from './list-users';

describe('listQuery', () => {
  it('turns page and page size into limit and offset', () => {
    expect(listQuery({ page: 3, pageSize: 50, sort: undefined, order: 'asc', q: '' })).toEqual({
      limit: '50',
      offset: '150',
      sort: undefined,
      order: undefined,
      q: undefined,
    });
  });

  it('sends the sort with its order and a trimmed search', () => {
    expect(listQuery({ page: 0, pageSize: 25, sort: 'created_at', order: 'desc', q: '  alice ' })).toEqual({
      limit: '25',
      offset: '0',
      sort: 'created_at',
      order: 'desc',
      q: 'alice',
    });
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { setWindowWidth } from '../testing/window-width';
import { renderWithProviders } from '../testing/render-with-providers';
import { DataTable } from './data-table';

interface Row {
  name: string;
}
const columns = [{ field: 'name', headerName: 'Name' }];
const texts = (row: Row) => [row.name];
const id = (row: Row) => row.name;

const summary = { header: 'Thing', render: (row: Row) => `summary of ${row.name}`, sortValue: (row: Row) => row.name };

function table(props: { rows: Row[] | undefined; error?: unknown; onRetry?: () => void; summary?: typeof summary }) {
  return (
    <DataTable<Row>
      label="Things"
      searchLabel="Search things"
      rows={props.rows}
      columns={columns}
      getRowId={id}
      searchTexts={texts}
      loading={false}
      error={props.error ?? null}
      onRetry={props.onRetry ?? vi.fn()}
      empty={<p>Nothing yet: create one</p>}
      {...(props.summary ? { summary: props.summary } : {})}
    />
  );
}

afterEach(cleanup);

describe('DataTable', () => {
  it('shows the empty state, not a grid, when there are no rows at all', () => {
    renderWithProviders(table({ rows: [] }));
    expect(screen.getByText('Nothing yet: create one')).toBeTruthy();
    expect(screen.queryByRole('grid')).toBeNull();
  });

  it('shows the server’s reason and retries on request', () => {
    const onRetry = vi.fn();
    const error = new ApiError(503, { statusCode: 503, error: 'Unavailable', message: 'Database is starting' });
    renderWithProviders(table({ rows: undefined, error, onRetry }));
    expect(screen.getByText('Could not load this list: Database is starting')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('filters the rows by the search box and says when nothing matches', async () => {
    renderWithProviders(table({ rows: [{ name: 'alpha' }, { name: 'beta' }] }));
    expect(await screen.findByText('alpha')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search things'), { target: { value: 'BET' } });
    expect(screen.queryByText('alpha')).toBeNull();
    expect(screen.getByText('beta')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search things'), { target: { value: 'gamma' } });
    expect(await screen.findByText('Nothing matches your search.')).toBeTruthy();
  });

  it('below lg shows one summary column instead of the others, and from lg the columns without it', async () => {
    setWindowWidth(390);
    renderWithProviders(table({ rows: [{ name: 'alpha' }], summary }));
    expect(await screen.findByText('summary of alpha')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Thing' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'Name' })).toBeNull();
    cleanup();
    setWindowWidth(1440);
    renderWithProviders(table({ rows: [{ name: 'alpha' }], summary }));
    expect(await screen.findByText('alpha')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'Thing' })).toBeNull();
    expect(screen.queryByText('summary of alpha')).toBeNull();
  });
});

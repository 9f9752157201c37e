// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { CreateRoleDialog } from './create-role-dialog';

const DUPLICATE = 'That role name is already in use.  Please use a different name.';
const catalogue: Record<string, [number, unknown]> = {
  'GET api/permission': [200, { permissions: ['list-host', 'list-group', 'modify-role'] }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function chooseForm(name: string) {
  fireEvent.change(screen.getByLabelText('Role name'), { target: { value: name } });
  const permissions = screen.getByLabelText('Permissions');
  fireEvent.mouseDown(permissions);
  fireEvent.click(await screen.findByText('list-group'));
  fireEvent.click(screen.getByRole('button', { name: 'Create role' }));
}

describe('CreateRoleDialog', () => {
  it('sends the name and the chosen permissions, and confirms', async () => {
    const seen = fakeServer({ ...catalogue, 'POST api/role': [201, { role: {}, message: 'Role created' }] });
    const onClose = vi.fn();
    renderWithProviders(<CreateRoleDialog open onClose={onClose} />);
    await chooseForm('  release-managers ');
    expect(await screen.findByText('Role created')).toBeTruthy();
    expect(seen.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'release-managers',
      permissions: ['list-group'],
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the exact duplicate text, two spaces included, on 409', async () => {
    fakeServer({ ...catalogue, 'POST api/role': [409, { statusCode: 409, error: 'Conflict', message: 'taken' }] });
    renderWithProviders(<CreateRoleDialog open onClose={vi.fn()} />);
    await chooseForm('operator');
    // No normaliser: the text must keep its two spaces.
    expect(await screen.findByText(DUPLICATE, { normalizer: (text) => text })).toBeTruthy();
  });

  it('shows the server’s reason when it refuses a permission the caller lacks', async () => {
    const reason = 'You cannot grant permissions you do not hold yourself: list-group.';
    fakeServer({ ...catalogue, 'POST api/role': [403, { statusCode: 403, error: 'Forbidden', message: reason }] });
    renderWithProviders(<CreateRoleDialog open onClose={vi.fn()} />);
    await chooseForm('auditors');
    expect(await screen.findByText(reason)).toBeTruthy();
  });

  it('asks for a name before calling the server', () => {
    const seen = fakeServer(catalogue);
    renderWithProviders(<CreateRoleDialog open onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create role' }));
    expect(screen.getByText('Role name is required')).toBeTruthy();
    expect(seen.filter((r) => r.method === 'POST')).toEqual([]);
  });
});

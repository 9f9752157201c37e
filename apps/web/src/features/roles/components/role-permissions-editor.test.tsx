// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { RolePermissionsEditor } from './role-permissions-editor';

const catalogue: Record<string, [number, unknown]> = {
  'GET api/permission': [200, { permissions: ['list-host', 'list-group', 'list-user', 'modify-role'] }],
};
const ops = {
  name: 'ops',
  builtin: false,
  permissions: ['list-host' as const],
  user_count: 0,
  require_two_factor: false,
  users: [],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RolePermissionsEditor', () => {
  it('adds the chosen permissions comma-joined and confirms', async () => {
    const seen = fakeServer({ ...catalogue, 'PUT api/role/ops/permissions': [200, { message: 'Role updated' }] });
    renderWithProviders(<RolePermissionsEditor role={ops} canModify />);
    fireEvent.mouseDown(screen.getByLabelText('Permissions to add'));
    fireEvent.click(await screen.findByText('list-group'));
    fireEvent.click(await screen.findByText('list-user'));
    fireEvent.click(screen.getByRole('button', { name: 'Add permissions' }));
    expect(await screen.findByText('Role updated')).toBeTruthy();
    expect(seen.find((r) => r.method === 'PUT')?.body).toEqual({ permissions: 'list-group,list-user' });
  });

  it('removes one permission with DELETE, naming it', async () => {
    const seen = fakeServer({ ...catalogue, 'DELETE api/role/ops/permissions': [200, { message: 'Role updated' }] });
    renderWithProviders(<RolePermissionsEditor role={ops} canModify />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove list-host from ops' }));
    expect(await screen.findByText('Role updated')).toBeTruthy();
    expect(seen.find((r) => r.method === 'DELETE')?.body).toEqual({ permissions: 'list-host' });
  });

  it('offers no changes to a reader', () => {
    fakeServer(catalogue);
    renderWithProviders(<RolePermissionsEditor role={ops} canModify={false} />);
    expect(screen.getByText('list-host')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /remove/i })).toBeNull();
    expect(screen.queryByLabelText('Permissions to add')).toBeNull();
  });

  it('shows the admin role as holding every permission, with nothing to edit', async () => {
    fakeServer(catalogue);
    const admin = { ...ops, name: 'admin', builtin: true, permissions: [] };
    renderWithProviders(<RolePermissionsEditor role={admin} canModify />);
    expect(screen.getByText(/The admin role holds every permission/)).toBeTruthy();
    expect(await screen.findByText('modify-role')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /remove/i })).toBeNull();
    expect(screen.queryByLabelText('Permissions to add')).toBeNull();
  });
});

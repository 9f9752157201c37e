// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { TunnelItem } from '../api/list-tunnels';
import { DeleteTunnelDialog } from './delete-tunnel-dialog';

const item: TunnelItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  type: 'rdp',
  name: 'Design workstation',
  host: { id: '6f1c1f3e-8d7e-4c5b-9a51-000000000001', hostname: 'win-desktop-07' },
  port: 3389,
  users: [],
  group: null,
  agents: [],
  ssh_login: null,
  ssh_auth: null,
  public_key: null,
  allow_port_forwarding: false,
  created_at: '2026-01-01T00:00:00.000Z',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DeleteTunnelDialog', () => {
  it('asks before deleting, naming the tunnel and its host, then confirms', async () => {
    const seen = fakeServer({ [`DELETE api/tunneldefinition/${item.id}`]: [200, { message: 'Tunnel deleted' }] });
    const onClose = vi.fn();
    renderWithProviders(<DeleteTunnelDialog item={item} onClose={onClose} />);
    const confirm = screen.getByRole('dialog', { name: 'Delete tunnel?' });
    expect(within(confirm).getByText(/Delete the tunnel Design workstation to win-desktop-07\?/)).toBeTruthy();
    expect(seen).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete tunnel' }));
    expect(await screen.findByText('Tunnel deleted')).toBeTruthy();
    expect(seen.map((request) => request.method)).toEqual(['DELETE']);
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the server’s reason when it refuses', async () => {
    const message = 'There is no tunnel definition with that id.';
    fakeServer({ [`DELETE api/tunneldefinition/${item.id}`]: [404, { statusCode: 404, error: 'Not Found', message }] });
    renderWithProviders(<DeleteTunnelDialog item={item} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete tunnel' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });
});

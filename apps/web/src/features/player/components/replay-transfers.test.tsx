// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import type { RecordingTransfer } from '../api/transfers';
import { ReplayTransfers } from './replay-transfers';

const transfer = (patch: Partial<RecordingTransfer>): RecordingTransfer => ({
  id: '1',
  t: 75.5,
  protocol: 'scp',
  op: 'upload',
  path: '/var/backups/db.sql',
  target: null,
  direction: 'upload',
  bytes: 1000,
  sha256: 'f'.repeat(64),
  outcome: 'ok',
  note: null,
  created_on: '2026-03-01T10:01:15.500Z',
  ...patch,
});

afterEach(cleanup);

describe('ReplayTransfers', () => {
  it('lists the recording’s transfers and jumps to the moment of the one chosen', () => {
    const onJump = vi.fn();
    render(
      <ReplayTransfers
        transfers={[
          transfer({}),
          transfer({ id: '2', t: 130, op: 'rename', path: '/a', target: '/b', direction: null }),
        ]}
        error={undefined}
        onJump={onJump}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Jump to 2:10: Rename /a' }));
    expect(onJump).toHaveBeenLastCalledWith(130);
    fireEvent.click(screen.getByRole('button', { name: 'Jump to 1:15: Upload /var/backups/db.sql' }));
    expect(onJump).toHaveBeenLastCalledWith(75.5);
    expect(screen.getByText('/a → /b')).toBeTruthy();
    // The outcome in words, not the server's code.
    expect(screen.getByText('2:10 · Rename · Succeeded')).toBeTruthy();
  });

  it('shows nothing for a recording without transfers, and says when they could not be loaded', () => {
    const { container } = render(<ReplayTransfers transfers={[]} error={undefined} onJump={vi.fn()} />);
    expect(container.textContent).toBe('');
    render(<ReplayTransfers transfers={undefined} error="offline" onJump={vi.fn()} />);
    expect(screen.getByText('Could not load the file transfers: offline')).toBeTruthy();
  });
});

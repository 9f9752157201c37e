// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { SessionTransfer } from '../api/session-transfers';
import { SessionTransfers } from './session-transfers';

const id = '7b0e4a52-25a8-4f43-9a53-0d3f1b4b2a11';
const sha = 'a'.repeat(32) + 'b'.repeat(32);
const item = (patch: Partial<SessionTransfer>): SessionTransfer => ({
  id: '1',
  t: 5,
  protocol: 'sftp',
  op: 'write',
  path: '/srv/in/report.pdf',
  target: null,
  direction: 'upload',
  bytes: 2048,
  sha256: sha,
  outcome: 'ok',
  note: null,
  created_on: '2026-03-01T10:00:05.000Z',
  ...patch,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show(transfers: SessionTransfer[]) {
  const seen = fakeServer({ [`GET api/recording/${id}/transfers`]: [200, { transfers, truncated: false }] });
  renderWithProviders(<SessionTransfers id={id} startedOn="2026-03-01T10:00:00.000Z" refresh={false} />);
  return seen;
}

describe('SessionTransfers', () => {
  it('lists each transfer with its direction, path, size, SHA-256 (copied on request) and outcome', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    show([
      item({}),
      item({
        id: '2',
        t: 65,
        op: 'read',
        path: '/etc/shadow',
        direction: 'download',
        bytes: 0,
        sha256: null,
        outcome: 'Permission denied',
        note: 'The host refused to open the file.',
      }),
      item({ id: '3', t: 70, op: 'rename', path: '/a', target: '/b', direction: null, bytes: 0, sha256: null }),
    ]);
    const list = await screen.findByRole('list', { name: 'File transfers' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('/srv/in/report.pdf')).toBeTruthy();
    expect(within(rows[0]!).getByText('Upload · sftp')).toBeTruthy();
    expect(within(rows[0]!).getByText(`SHA-256 ${sha}`)).toBeTruthy();
    expect(within(rows[0]!).getByText('0:05')).toBeTruthy();
    expect(within(rows[0]!).getByText('Succeeded')).toBeTruthy();
    expect(within(rows[1]!).getByText('Permission denied')).toBeTruthy();
    expect(within(rows[1]!).getByText('The host refused to open the file.')).toBeTruthy();
    expect(within(rows[1]!).queryByText(/SHA-256/)).toBeNull();
    expect(within(rows[2]!).getByText('/a → /b')).toBeTruthy();
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Copy the SHA-256 of /srv/in/report.pdf' }));
    expect(await screen.findByText('Copied to the clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(sha);
  });

  it('searches paths and sorts by size', async () => {
    show([
      item({ id: '1', path: '/small.txt', bytes: 10 }),
      item({ id: '2', path: '/big.iso', bytes: 10_000_000 }),
      item({ id: '3', path: '/mid.tar', bytes: 5000 }),
    ]);
    const list = await screen.findByRole('list', { name: 'File transfers' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search paths' }), { target: { value: 'BIG' } });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('/big.iso')]);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search paths' }), { target: { value: 'nothing' } });
    expect(screen.getByText('No transfer matches this search.')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search paths' }), { target: { value: '' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Sort by' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Size' }));
    const paths = within(list)
      .getAllByRole('listitem')
      .map((li) => /\/[a-z]+\.[a-z]+/.exec(li.textContent ?? '')?.[0]);
    expect(paths).toEqual(['/big.iso', '/mid.tar', '/small.txt']);
  });

  it('says when a session transferred no files', async () => {
    const seen = show([]);
    expect(await screen.findByText('No file transfers in this session.')).toBeTruthy();
    expect(seen.map((r) => r.url)).toEqual([`api/recording/${id}/transfers`]);
  });
});

// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../components/testing/render-with-providers';
import { readFilters } from './use-session-filters';
import { listQuery, DEFAULT_FILTERS } from '../api/list-sessions';
import type { SessionRow } from '../derive';
import { ChannelKindLabel } from './session-cells';
import { SessionFacts } from './session-facts';

afterEach(cleanup);

const row = (patch: Partial<SessionRow>): SessionRow => ({
  id: 'c0ffee00-0000-4000-8000-000000000002',
  host: { id: null, hostname: 'win-01' },
  user: { email: 'ada@example.test' },
  started_on: '2026-01-01T00:00:00.000Z',
  ended_on: null,
  has_video: true,
  type: 'rdp',
  tunnel: 'Finance desktop',
  end_reason: null,
  terminated_by: null,
  forwards: [],
  legal_hold: { held: false, by: null, at: null, reason: null },
  kind: null,
  command: null,
  ...patch,
});

// Issue 18: an rdp session is either a browser desktop the gateway ran and filmed, or a native
// RDP client through a tunnel (filmed by the agent); the list and the details tell them apart.
describe('rdp sessions: browser desktop or RDP client', () => {
  it('the Kind cell names a browser desktop filmed at the gateway, and a native RDP client', () => {
    renderWithProviders(
      <ul>
        <li data-testid="desktop">
          <ChannelKindLabel row={row({ kind: 'desktop' })} />
        </li>
        <li data-testid="native">
          <ChannelKindLabel row={row({})} />
        </li>
        <li data-testid="native-unfilmed">
          <ChannelKindLabel row={row({ has_video: false })} />
        </li>
        <li data-testid="tunnel">
          <ChannelKindLabel row={row({ type: 'generic', has_video: false })} />
        </li>
      </ul>,
    );
    expect(screen.getByTestId('desktop').textContent).toBe('Browser desktop (filmed at the gateway)');
    expect(screen.getByTestId('native').textContent).toBe('RDP client');
    expect(screen.getByTestId('native-unfilmed').textContent).toBe('RDP client');
    expect(screen.getByTestId('tunnel').textContent).toBe('-');
  });

  it('the session details say which it was', () => {
    const { container, unmount } = renderWithProviders(
      <SessionFacts row={row({ kind: 'desktop' })} detail={undefined} />,
    );
    expect(container.textContent).toContain('Browser desktop (filmed at the gateway)');
    expect(container.textContent).not.toContain('RDP client');
    unmount();
    const native = renderWithProviders(<SessionFacts row={row({})} detail={undefined} />);
    expect(native.container.textContent).toContain('RDP client');
    expect(native.container.textContent).not.toContain('Browser desktop');
  });

  it('filters by browser desktops: read from the URL and sent to the server', () => {
    expect(readFilters(new URLSearchParams('kind=desktop')).kind).toBe('desktop');
    expect(
      listQuery(
        { ...DEFAULT_FILTERS, kind: 'desktop', pageSize: 50, sort: 'kind', order: 'asc', cursor: undefined },
        new Date(),
      ),
    ).toMatchObject({ kind: 'desktop', sort: 'kind', order: 'asc' });
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { Dashboard } from '../api/get-dashboard';
import { DashboardPage } from './dashboard-page';

const DAY = 86_400_000;
const midnight = (daysAgo: number) => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
};
const days = (count: number, sessions: (i: number) => number) =>
  Array.from({ length: count }, (_, i) => {
    const start = midnight(count - 1 - i);
    return { start: start.toISOString(), label: start.toDateString(), sessions: sessions(i) };
  });

function answer(patch: Partial<Dashboard['recordings']> = {}): Dashboard {
  const hourStart = Date.now() - 23 * 3_600_000;
  return {
    recordings: {
      past24Hours: Array.from({ length: 24 }, (_, i) => ({
        start: new Date(hourStart + i * 3_600_000).toISOString(),
        label: `${i}:00`,
        sessions: i % 3,
      })),
      pastWeek: days(7, (i) => i + 1),
      pastMonth: days(30, () => 2),
      pastAll: days(90, () => 1),
      longRunning: days(3, (i) => (i === 0 ? 2 : 0)),
      totalPast24Hours: 23,
      totalPastWeek: 28,
      totalPastMonth: 60,
      totalAll: 1234,
      totalLongRunning: 2,
      live: 4,
      ...patch,
    },
    agents_dashboard: {
      connected: 3,
      total: 5,
      days: Array.from({ length: 30 }, (_, i) => ({
        start: new Date(midnight(29).getTime() + i * DAY).toISOString(),
        label: '',
        connected: 3,
        total: 5,
      })),
    },
  };
}

/** Waits until the sessions card shows the total of the data, not the placeholder. */
const total = async (expected: string) =>
  vi.waitFor(() => expect(screen.getByTestId('sessions-total').textContent).toBe(expected));
const value = (testId: string) => screen.findByTestId(`${testId}-value`).then((element) => element.textContent);

describe('DashboardPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for the dashboard in the browser time zone and shows the headline figures', async () => {
    const seen = fakeServer({ 'GET api/agent/dashboard': [200, answer()] });
    renderWithProviders(<DashboardPage />);
    expect(await value('stat-agents')).toBe('3 / 5');
    expect(await value('stat-live')).toBe('4');
    expect(await value('stat-today')).toBe('7');
    expect(await value('stat-long-running')).toBe('2');
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(seen[0]?.url).toBe(`api/agent/dashboard?tz=${encodeURIComponent(tz)}`);
  });

  it("switches the chart's range and shows that range's total", async () => {
    fakeServer({ 'GET api/agent/dashboard': [200, answer()] });
    renderWithProviders(<DashboardPage />);
    await total('60');
    const ranges = screen.getByRole('group', { name: 'Time range' });
    fireEvent.click(within(ranges).getByRole('button', { name: 'All' }));
    expect(screen.getByTestId('sessions-total').textContent).toBe('1,234');
    expect(screen.getByText('sessions since the first one')).toBeTruthy();
    fireEvent.click(within(ranges).getByRole('button', { name: 'Past 24 hours' }));
    expect(screen.getByTestId('sessions-total').textContent).toBe('23');
    expect(within(ranges).getByRole('button', { name: 'Past 24 hours' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('says so when a range has no sessions instead of drawing an empty chart', async () => {
    fakeServer({
      'GET api/agent/dashboard': [200, answer({ longRunning: days(1, () => 0), totalLongRunning: 0 })],
    });
    renderWithProviders(<DashboardPage />);
    await total('60');
    fireEvent.click(screen.getByRole('button', { name: 'Long running' }));
    expect(screen.getByTestId('sessions-range-empty').textContent).toBe(
      'No session has been live for 24 hours or more.',
    );
  });

  it('shows the empty state when no session was ever recorded', async () => {
    const none = { sessions: 0 };
    const empty = answer({
      past24Hours: answer().recordings.past24Hours.map((b) => ({ ...b, ...none })),
      pastWeek: days(7, () => 0),
      pastMonth: days(30, () => 0),
      pastAll: days(1, () => 0),
      longRunning: days(1, () => 0),
      totalPast24Hours: 0,
      totalPastWeek: 0,
      totalPastMonth: 0,
      totalAll: 0,
      totalLongRunning: 0,
      live: 0,
    });
    fakeServer({ 'GET api/agent/dashboard': [200, empty] });
    renderWithProviders(<DashboardPage />);
    const state = await screen.findByTestId('dashboard-empty');
    expect(within(state).getByRole('heading', { name: 'No sessions yet' })).toBeTruthy();
    expect(screen.queryByTestId('sessions-total')).toBeNull();
    expect(await value('stat-live')).toBe('0');
  });

  it("shows the server's reason when the dashboard cannot load, and retries", async () => {
    const seen = fakeServer({ 'GET api/agent/dashboard': [403, { message: 'Needs list-host or list-recording' }] });
    renderWithProviders(<DashboardPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the dashboard: Needs list-host or list-recording');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(seen).toHaveLength(2));
  });
});

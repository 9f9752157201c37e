import { type Page, type Request, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { callApi, storedToken } from '../identity-helpers.js';

/** What GET /api/agent/dashboard answers (the parts the screen shows). */
interface DashboardAnswer {
  recordings: Record<
    'past24Hours' | 'pastWeek' | 'pastMonth' | 'pastAll' | 'longRunning',
    { start: string; sessions: number }[]
  > &
    Record<'totalPast24Hours' | 'totalPastWeek' | 'totalPastMonth' | 'totalAll' | 'totalLongRunning' | 'live', number>;
  agents_dashboard: { connected: number; total: number; days: { start: string; connected: number; total: number }[] };
}

const RANGES = [
  { button: 'Past 24 hours', total: 'totalPast24Hours' },
  { button: 'Past week', total: 'totalPastWeek' },
  { button: 'Past month', total: 'totalPastMonth' },
  { button: 'All', total: 'totalAll' },
  { button: 'Long running', total: 'totalLongRunning' },
] as const;

const isDashboardCall = (url: string) => new URL(url).pathname.endsWith('/api/agent/dashboard');

/** The dashboard as the API answers it to the signed-in user, in the browser's time zone. */
async function apiDashboard(page: Page): Promise<DashboardAnswer> {
  const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const res = await callApi(page.request, await storedToken(page), 'GET', `/api/agent/dashboard?tz=${tz}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as DashboardAnswer;
}

/** Sessions "today": the daily bucket of the past week that starts at local midnight. */
function today(answer: DashboardAnswer): number {
  const now = new Date();
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return answer.recordings.pastWeek.find((b) => Date.parse(b.start) === midnight)?.sessions ?? 0;
}

const figure = (page: Page, id: string) => page.getByTestId(`${id}-value`);
const number = (value: number) => new Intl.NumberFormat('en').format(value);

test.describe('dashboard', () => {
  test('shows what the API answers: figures, each range with its total, and the charts', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request: Request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await signIn(page, ACCOUNTS.admin);
    const beforeDashboard = scripts.length;
    const answered = page.waitForResponse((res) => isDashboardCall(res.url()));
    await page.goto('/#/hostsDashboard');
    const sent = new URL((await answered).url());
    expect(sent.searchParams.get('tz')).toBe(
      await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    );
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');

    const api = await apiDashboard(page);
    expect(api.recordings.totalAll, 'the demo data has sessions').toBeGreaterThan(0);
    const agents = api.agents_dashboard;
    await expect(figure(page, 'stat-agents')).toHaveText(`${number(agents.connected)} / ${number(agents.total)}`);
    await expect(page.getByTestId('stat-agents')).toContainText(`of ${number(agents.total)} enrolled`);
    await expect(figure(page, 'stat-live')).toHaveText(number(api.recordings.live));
    await expect(figure(page, 'stat-today')).toHaveText(number(today(api)));
    await expect(figure(page, 'stat-long-running')).toHaveText(number(api.recordings.totalLongRunning));

    // The sessions chart opens on the past month; every range shows the server's total and its buckets.
    const ranges = page.getByRole('group', { name: 'Time range' });
    await expect(ranges.getByRole('button', { name: 'Past month' })).toHaveAttribute('aria-pressed', 'true');
    for (const range of RANGES) {
      await ranges.getByRole('button', { name: range.button, exact: true }).click();
      await expect(page.getByTestId('sessions-total')).toHaveText(number(api.recordings[range.total]));
      const key = (
        {
          totalPast24Hours: 'past24Hours',
          totalPastWeek: 'pastWeek',
          totalPastMonth: 'pastMonth',
          totalAll: 'pastAll',
          totalLongRunning: 'longRunning',
        } as const
      )[range.total];
      const buckets = api.recordings[key];
      if (buckets.every((b) => b.sessions === 0)) {
        await expect(page.getByTestId('sessions-range-empty')).toBeVisible();
      } else {
        await expect(page.getByTestId('sessions-chart').locator('svg').first()).toBeVisible();
      }
    }

    // The week as bars: one bar per day that had sessions, tallest where the API counts most.
    await ranges.getByRole('button', { name: 'Past week', exact: true }).click();
    const week = api.recordings.pastWeek;
    if (week.some((b) => b.sessions > 0)) {
      const bars = page.getByTestId('sessions-chart').locator('.MuiBarChart-element');
      await expect(bars).toHaveCount(week.length);
      // Days with sessions are drawn with a height; the order of the drawn elements is MUI's, not the days'.
      const heights = await bars.evaluateAll((elements) =>
        elements.map((element) => element.getBoundingClientRect().height),
      );
      expect(heights.filter((h) => h > 0).length).toBeGreaterThanOrEqual(week.filter((b) => b.sessions > 0).length);
    }

    await expect(page.getByTestId('agents-chart').locator('svg').first()).toBeVisible();
    await expect(page.getByTestId('agents-chart')).toContainText('Connected');
    await expect(page.getByTestId('agents-chart')).toContainText('Enrolled');

    // The charts' code arrived only with the dashboard, not with the console's first scripts.
    const chartChunk = /chart/i;
    expect(scripts.slice(0, beforeDashboard).filter((path) => chartChunk.test(path))).toEqual([]);
    expect(scripts.slice(beforeDashboard).some((path) => chartChunk.test(path))).toBe(true);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/dashboard-en-dark.png`, fullPage: true });
  });

  test('refreshes every 120 seconds and on demand', async ({ page }) => {
    await page.clock.install();
    await signIn(page, ACCOUNTS.admin, '/hostsDashboard');
    await expect(figure(page, 'stat-live')).toBeVisible();
    const calls: string[] = [];
    page.on('request', (request) => {
      if (isDashboardCall(request.url())) calls.push(request.url());
    });
    await page.clock.fastForward(60_000);
    expect(calls).toHaveLength(0);
    const timed = page.waitForRequest((request) => isDashboardCall(request.url()));
    await page.clock.fastForward(61_000);
    await timed;
    await expect(figure(page, 'stat-live')).toBeVisible();
    const clicked = page.waitForRequest((request) => isDashboardCall(request.url()));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await clicked;
  });

  test('in Arabic on a 390 px phone: right to left, localised, nothing wider than the screen', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/hostsDashboard');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('لوحة المعلومات');
    const api = await apiDashboard(page);
    // Numbers as the browser writes them in Arabic (its digits may be Latin or Arabic-Indic).
    const arabic = (value: number) => page.evaluate((n) => new Intl.NumberFormat('ar').format(n), value);
    await expect(figure(page, 'stat-live')).toHaveText(await arabic(api.recordings.live));
    await expect(page.getByTestId('sessions-total')).toHaveText(await arabic(api.recordings.totalPastMonth));
    await page.getByRole('group', { name: 'النطاق الزمني' }).getByRole('button', { name: 'آخر 24 ساعة' }).click();
    await expect(page.getByTestId('sessions-total')).toHaveText(await arabic(api.recordings.totalPast24Hours));
    await expect(page.getByTestId('agents-chart').locator('svg').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENS}/dashboard-ar-390.png`, fullPage: true });
  });

  test('a viewer holding only list-host sees the dashboard the API gives them', async ({ page }) => {
    await signIn(page, ACCOUNTS.hostViewer);
    await expect(page).toHaveURL(/#\/hostsDashboard$/i);
    const api = await apiDashboard(page);
    const agents = api.agents_dashboard;
    await expect(figure(page, 'stat-agents')).toHaveText(`${number(agents.connected)} / ${number(agents.total)}`);
    await expect(figure(page, 'stat-live')).toHaveText(number(api.recordings.live));
    if (api.recordings.totalAll === 0 && api.recordings.live === 0) {
      await expect(page.getByTestId('dashboard-empty')).toContainText('No sessions yet');
    } else {
      await expect(page.getByTestId('sessions-total')).toHaveText(number(api.recordings.totalPastMonth));
    }
  });

  test('a user without list-host or list-recording lands on My access, and the console never asks for the dashboard', async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/agent/dashboard')) asked.push(request.url());
    });
    await signIn(page, ACCOUNTS.plainUser, '/hostsDashboard');
    await expect(page).toHaveURL(/#\/access$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My access' })).toBeVisible();
    // The server still refuses the call itself: the console only stopped making it.
    const res = await callApi(page.request, await storedToken(page), 'GET', '/api/agent/dashboard');
    expect(res.status()).toBe(403);
    expect(asked).toEqual([]);
  });

  test('a time zone that does not exist is refused with a clear 400', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    const res = await callApi(page.request, await storedToken(page), 'GET', '/api/agent/dashboard?tz=Mars/Olympus');
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('tz');
  });
});

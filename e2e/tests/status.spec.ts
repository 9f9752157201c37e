import fs from 'node:fs/promises';
import path from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import { adminToken, callApi, createUser, storedToken, unique } from '../identity-helpers.js';
import { DATA_DIR } from './users-api.js';

/** What GET /api/pods answers. */
interface PodsAnswer {
  pods: { name: string; status: 'Running' | 'Failed' | 'Unknown'; detail: string; checked_at: string }[];
}

const COMPONENTS = ['api', 'gateway', 'database', 'recording-storage', 'agent-hub'];
const TITLES: Record<string, string> = {
  api: 'API',
  gateway: 'SSH gateway',
  database: 'Database',
  'recording-storage': 'Recording storage',
  'agent-hub': 'Agent hub',
};

const isPodsCall = (url: string) => new URL(url).pathname.endsWith('/api/pods');
const card = (page: Page, name: string) => page.getByTestId(`component-${name}`);
const statusEntry = (page: Page) => mainNav(page).getByRole('link', { name: 'Status', exact: true });
const logLines = (page: Page) => page.getByTestId('log-lines').locator('li');

async function apiPods(page: Page): Promise<PodsAnswer> {
  const res = await callApi(page.request, await storedToken(page), 'GET', '/api/pods');
  expect(res.status()).toBe(200);
  return (await res.json()) as PodsAnswer;
}

/** Every component card and the log panel lie inside the screen's width (nothing cut at either side). */
async function expectWithinScreen(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  for (const box of [
    ...(await page.getByTestId('component-list').locator('> li').all()),
    page.getByTestId('logs-panel'),
  ]) {
    const bounds = await box.boundingBox();
    expect(bounds).not.toBeNull();
    expect(bounds?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((bounds?.x ?? 0) + (bounds?.width ?? 0)).toBeLessThanOrEqual(width);
  }
}

test.describe('system status', () => {
  test('lists the five components Running as the API answers, and the navigation says Healthy', async ({ page }) => {
    const answered = page.waitForResponse((res) => isPodsCall(res.url()));
    await signIn(page, ACCOUNTS.admin, '/systemStatus');
    expect((await answered).status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Status');

    const api = await apiPods(page);
    expect(api.pods.map((pod) => pod.name)).toEqual(COMPONENTS);
    expect(api.pods.every((pod) => pod.status === 'Running')).toBe(true);
    await expect(page.getByTestId('component-list').locator('> li')).toHaveCount(5);
    for (const pod of api.pods) {
      const item = card(page, pod.name);
      await expect(item).toHaveAttribute('data-status', 'Running');
      await expect(item.getByRole('heading', { level: 2 })).toHaveText(TITLES[pod.name] ?? pod.name);
      await expect(item.getByText('Running', { exact: true })).toBeVisible();
      await expect(item.getByText(/^Checked /)).toBeVisible();
    }
    // Details that stay the same from one check to the next are the API's own words.
    const gateway = api.pods.find((pod) => pod.name === 'gateway');
    await expect(card(page, 'gateway').getByTestId('component-detail')).toHaveText(gateway?.detail ?? '');
    await expect(card(page, 'gateway').getByTestId('component-detail')).toHaveText(/^SSH-2\.0-/);

    await expect(page.getByTestId('health-summary-title')).toHaveText('Healthy');
    await expect(page.getByTestId('health-summary')).toContainText('All 5 components are running.');
    await expect(statusEntry(page)).toHaveAccessibleDescription('System health: Healthy, Unhealthy components: 0');
    await expect(statusEntry(page)).toContainText('Healthy');

    // Refresh checks again.
    const again = page.waitForResponse((res) => isPodsCall(res.url()));
    await page.getByRole('button', { name: 'Refresh' }).click();
    expect((await again).status()).toBe(200);
    await expect(page.getByTestId('logs-choose')).toContainText('Choose a component');

    // Keyboard: arrows move between the components, Enter opens one's log.
    await card(page, 'api').getByRole('button').focus();
    await page.keyboard.press('ArrowDown');
    await expect(card(page, 'gateway').getByRole('button')).toBeFocused();
    await page.keyboard.press('End');
    await expect(card(page, 'agent-hub').getByRole('button')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(card(page, 'api').getByRole('button')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(card(page, 'api').getByRole('button')).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/component=api/);
    await expect(page.getByRole('heading', { name: 'Recent log of API' })).toBeVisible();
    await page.goto('/#/systemStatus');
    await expect(page.getByTestId('logs-choose')).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/status-en-dark.png`, fullPage: true });
  });

  test('an administrator reads the api component’s log: parsed, searched, filtered, raw, copied, downloaded', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, ACCOUNTS.admin, '/systemStatus');
    const logsCall = page.waitForResponse((res) => new URL(res.url()).pathname.endsWith('/api/pods/api/logs'));
    await card(page, 'api').getByRole('button').click();
    await expect(page).toHaveURL(/component=api/);
    expect((await logsCall).status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Recent log of API' })).toBeVisible();

    // The API's own lines, read: the console's requests appear with their method and path.
    await expect(logLines(page).first()).toBeVisible();
    const token = await storedToken(page);
    const res = await callApi(page.request, token, 'GET', '/api/pods/api/logs?limit=500');
    const answer = (await res.json()) as { pods: { name: string; logs: string[] }[] };
    expect(answer.pods[0]?.name).toBe('api');
    expect(answer.pods[0]?.logs.length).toBeGreaterThan(0);
    // The console's own files are requests too: look for a call of the API among the lines.
    await expect(
      logLines(page).filter({ hasText: 'incoming request' }).filter({ hasText: 'req: GET /api/' }).first(),
    ).toBeVisible();
    await expect(logLines(page).filter({ hasText: 'request completed' }).first()).toContainText(/res: \d{3}/);
    const first = logLines(page).first();
    await expect(first.locator('time')).toHaveText(/\d{1,2}:\d{2}:\d{2}/);
    await expect(first).toContainText('Info');
    await expect(page.getByTestId('log-count')).toContainText(/^\d+ of \d+ lines/);

    // Search: every line shown has the text, marked.
    await page.getByTestId('log-lines').click();
    await page.keyboard.press('/');
    await expect(page.getByLabel('Search the log')).toBeFocused();
    await page.keyboard.type('request completed');
    await expect(logLines(page).first()).toBeVisible();
    const texts = await logLines(page).allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((text) => text.includes('request completed'))).toBe(true);
    await expect(logLines(page).first().locator('mark')).toHaveText('request completed');
    await page.keyboard.press('Escape');
    await expect(page.getByLabel('Search the log')).toHaveValue('');

    // Level: errors only shows error lines or says that none match.
    await page.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: 'Errors only' }).click();
    const levels = await page
      .getByTestId('log-lines')
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-level')));
    if (levels.length === 0) await expect(page.getByTestId('logs-no-match')).toBeVisible();
    else expect(levels.every((level) => level === 'error' || level === 'fatal')).toBe(true);
    await page.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: 'All levels' }).click();

    // Raw: the JSON lines as the server keeps them; following paused so the lines hold still.
    await page.getByLabel('Follow').uncheck();
    await page.getByLabel('Raw JSON').check();
    const rawFirst = (await logLines(page).first().textContent()) ?? '';
    // The server keeps only the latest 500 lines and they move fast, so the line is checked for
    // its shape rather than looked up in the earlier answer.
    const parsed = JSON.parse(rawFirst) as { level?: unknown; msg?: unknown };
    expect(typeof parsed.level).toBe('number');
    expect(typeof parsed.msg).toBe('string');

    // Copy and download what is shown.
    await page.getByRole('button', { name: 'Copy the lines shown' }).click();
    await expect(page.getByText('Copied to the clipboard')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n')[0]).toBe(rawFirst);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the lines shown' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^gatehouse-api-\d{8}-\d{6}\.log$/);
    const file = await fs.readFile(await download.path(), 'utf8');
    const lines = file.trimEnd().split('\n');
    expect(lines[0]).toBe(rawFirst);
    expect(lines.every((line) => typeof (JSON.parse(line) as { level: unknown }).level === 'number')).toBe(true);
    await page.getByLabel('Raw JSON').uncheck();

    // Follow: the log's own loads are logged, so new lines arrive on their own within seconds.
    await page.getByLabel('Follow').check();
    await expect(page.getByLabel('Follow')).toBeChecked();
    // The server keeps the latest 500 lines, so a full log does not grow: the newest line changes.
    const newest = await logLines(page).last().textContent();
    await expect.poll(() => logLines(page).last().textContent(), { timeout: 15_000 }).not.toBe(newest);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/status-logs-en-dark.png`, fullPage: true });
  });

  test('a component that fails turns the screen and the navigation to Problem through the cluster socket', async ({
    page,
  }) => {
    await signIn(page, ACCOUNTS.admin, '/systemStatus');
    await expect(page.getByTestId('health-summary-title')).toHaveText('Healthy');
    // From here the screen may not load the components itself: only the socket can tell it.
    await page.route('**/api/pods', (route) => route.abort());
    const recordings = path.join(DATA_DIR, 'recordings');
    const aside = `${recordings}-${unique('aside')}`;
    await fs.rename(recordings, aside);
    await fs.writeFile(recordings, 'not a folder');
    try {
      // The server checks every 10 s and sends k8s_statefulset_update on a change.
      await expect(card(page, 'recording-storage')).toHaveAttribute('data-status', 'Failed', { timeout: 25_000 });
      await expect(card(page, 'recording-storage').getByText('Failed', { exact: true })).toBeVisible();
      await expect(page.getByTestId('health-summary-title')).toHaveText('Problem');
      await expect(page.getByTestId('health-summary')).toContainText(
        'Not running: Recording storage (1 of 5 components).',
      );
      await expect(statusEntry(page)).toHaveAccessibleDescription('System health: Problem, Unhealthy components: 1');
      await page.mouse.move(0, 0);
      await page.screenshot({ path: `${SCREENS}/status-problem-en-dark.png`, fullPage: true });
    } finally {
      await fs.rm(recordings, { force: true });
      await fs.rename(aside, recordings);
    }
    await expect(card(page, 'recording-storage')).toHaveAttribute('data-status', 'Running', { timeout: 25_000 });
    await expect(page.getByTestId('health-summary-title')).toHaveText('Healthy');
    await expect(statusEntry(page)).toHaveAccessibleDescription('System health: Healthy, Unhealthy components: 0');
    await page.unroute('**/api/pods');
  });

  test('a holder of manage-kubernetes without the admin role sees the health, and why not the logs', async ({
    page,
  }) => {
    const admin = await adminToken(page.request);
    const role = unique('status-watchers');
    expect(
      (
        await callApi(page.request, admin, 'POST', '/api/role', { name: role, permissions: ['manage-kubernetes'] })
      ).status(),
    ).toBe(201);
    const person = await createUser(page.request, 'status-watcher');
    expect((await callApi(page.request, admin, 'PUT', `/api/role/${role}/users`, { users: [person.email] })).ok()).toBe(
      true,
    );
    await signIn(page, person, '/systemStatus');
    await expect(page.getByTestId('health-summary-title')).toHaveText('Healthy');
    await card(page, 'gateway').getByRole('button').click();
    await expect(page.getByTestId('logs-admin-only')).toContainText('Only administrators read component logs');
    await expect(page.getByTestId('log-lines')).toHaveCount(0);
    const res = await callApi(page.request, await storedToken(page), 'GET', '/api/pods/gateway/logs');
    expect(res.status()).toBe(403);
  });

  test('a user without manage-kubernetes has no Status entry, and the API refuses the components', async ({ page }) => {
    await signIn(page, ACCOUNTS.operator);
    await expect(statusEntry(page)).toHaveCount(0);
    const res = await callApi(page.request, await storedToken(page), 'GET', '/api/pods');
    expect(res.status()).toBe(403);
  });

  test('a session ended elsewhere signs the console out: its socket hears it, or the next 401 does', async ({
    page,
  }) => {
    await signIn(page, ACCOUNTS.admin, '/systemStatus');
    await expect(page.getByTestId('health-summary-title')).toHaveText('Healthy');
    // The session ends elsewhere (signed out through the API with the same token).
    const token = await storedToken(page);
    expect((await callApi(page.request, token, 'POST', '/api/logout')).ok()).toBe(true);
    // Live rights usually sign the console out first; if not, the refresh's 401 does.
    await page
      .getByRole('button', { name: 'Refresh' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await expect(page).toHaveURL(/#\/signin/);
    await expect(page.getByText('You were signed out')).toBeVisible();
  });

  test('reads right to left in Arabic and fits a 390 px phone; light mode', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/systemStatus');
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.goto('/?theme_mode=light#/systemStatus?component=api');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByTestId('health-summary-title')).toHaveText('سليم');
    await expect(card(page, 'api').getByText('يعمل', { exact: true })).toBeVisible();
    await expect(page.getByTestId('log-lines')).toHaveAttribute('dir', 'ltr');
    await expect(logLines(page).first()).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/status-ar-light-wide.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the log is under the list: choosing a component brings it into view.
    await card(page, 'gateway').getByRole('button').click();
    await expect(page.getByRole('heading', { name: 'السجل الأخير: بوابة SSH' })).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectWithinScreen(page);
    await page.screenshot({ path: `${SCREENS}/status-ar-light-390.png`, fullPage: true });

    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.goto('/?theme_mode=dark#/systemStatus?component=gateway');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(card(page, 'gateway')).toBeVisible();
    const narrow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(narrow).toBeLessThanOrEqual(0);
    await expectWithinScreen(page);
    await page.screenshot({ path: `${SCREENS}/status-en-dark-390.png`, fullPage: true });
  });
});

import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { RSYSLOGD, type Rsyslog, startRsyslog } from '../../apps/server/src/test/rsyslog.js';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import { adminToken, callApi, createUser, navEntries, signOutOfConsole } from '../identity-helpers.js';

const off = { enabled: false, host: '', port: 514, tls: false, ca: '', facility: 'authpriv' };

test.describe('audit screen', () => {
  test.afterAll(async ({ request }) => {
    // Leave streaming off for the other specs.
    await callApi(request, await adminToken(request), 'PUT', '/api/audit/streaming', {
      syslog: off,
      webhook: { enabled: false, url: '' },
    });
  });

  test('finds a sign-in, shows its detail and exports the filtered trail as CSV', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    await mainNav(page)
      .getByRole('link', { name: /^Audit/ })
      .click();
    await expect(page).toHaveURL(/#\/audit$/);
    await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeVisible();
    await page.getByLabel('Who').fill('admin@e2e');
    await page.getByLabel('Action').click();
    await page.getByRole('option', { name: 'auth.login' }).click();
    await page.getByLabel('Outcome').click();
    await page.getByRole('option', { name: 'Success' }).click();
    await expect(page).toHaveURL(/actor=admin%40e2e/);
    const grid = page.getByRole('grid', { name: 'Audit entries' });
    const first = grid.locator('.MuiDataGrid-row').first();
    await expect(first).toContainText('admin@e2e.gatehouse.test');
    await expect(first).toContainText('auth.login');
    await first.click();
    const drawer = page.getByRole('dialog', { name: 'Audit entry' });
    await expect(drawer).toContainText('auth.login');
    await expect(drawer).toContainText('Success');
    await page.screenshot({ path: `${SCREENS}/audit-detail-en-light-1440.png` });
    await page.keyboard.press('Escape');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'CSV (spreadsheets)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^gatehouse-audit-\d{8}T\d{6}\.csv$/);
    const csv = fs.readFileSync(await file.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('id,at,actor,action,target,outcome,status,source,detail');
    expect(csv.slice(1, -1).length).toBeGreaterThan(0);
    expect(
      csv
        .slice(1, -1)
        .every((line) => line.includes(',admin@e2e.gatehouse.test,auth.login,') && line.includes(',success,')),
    ).toBe(true);

    await page.getByRole('searchbox', { name: 'Search' }).fill('no-such-text-anywhere-0xq');
    await expect(page.getByText('No entry matches these filters.', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/#\/audit$/);
    await expect(page.getByLabel('Who')).toHaveValue('');
  });

  test('is not there for a user without list-audit-log, and the API refuses them', async ({ page, request }) => {
    const user = await createUser(request, 'audit-plain');
    await signIn(page, user);
    expect(await navEntries(page)).not.toContain('Audit');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    for (const path of ['/api/audit', '/api/audit/export?format=csv', '/api/audit/export?format=jsonl']) {
      const res = await callApi(request, token ?? '', 'GET', path);
      expect(res.status(), path).toBe(403);
    }
    await signOutOfConsole(page);
  });

  test.describe('streaming', () => {
    let rsyslog: Rsyslog | undefined;
    test.skip(!fs.existsSync(RSYSLOGD), 'rsyslog is not installed');
    test.afterAll(async () => rsyslog?.stop());

    test('an administrator streams the trail to rsyslog and sees the delivery', async ({ page, browser }) => {
      test.setTimeout(150_000);
      rsyslog = await startRsyslog({ tls: false });
      await signIn(page, ACCOUNTS.admin, '/audit');
      await page.getByRole('tab', { name: 'Streaming to a SIEM' }).click();
      await expect(page).toHaveURL(/#\/audit\/streaming$/);
      const syslog = page.getByRole('region', { name: 'Syslog' });
      await syslog.getByLabel('Send new entries').check();
      await page.getByLabel('Collector host').fill('127.0.0.1');
      await page.getByLabel('Port').fill(String(rsyslog.port));
      await page.getByLabel("Use TLS (the collector's certificate is checked)").uncheck();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Streaming settings saved.')).toBeVisible();

      // A new sign-in, in another browser context, is streamed as it is written.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await signIn(otherPage, ACCOUNTS.operator);
      await other.close();
      await expect
        .poll(
          () =>
            rsyslog?.lines().filter((line) => line.includes('|auth.login|') && line.includes(ACCOUNTS.operator.email))
              .length,
          {
            timeout: 30_000,
          },
        )
        .toBeGreaterThan(0);
      await expect(page.getByText(/^Last delivery: /).first()).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: `${SCREENS}/audit-streaming-en-light-1440.png` });

      // The audit screen finds that sign-in too.
      await page.getByRole('tab', { name: 'Entries' }).click();
      await page.getByLabel('Who').fill(ACCOUNTS.operator.email);
      await expect(page.getByRole('grid').locator('.MuiDataGrid-row').first()).toContainText('auth.login');
    });
  });

  test('reads well in light and dark, English and Arabic, on a desktop and a phone', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, ACCOUNTS.admin, '/audit');
    for (const [language, mode, width] of [
      ['en', 'light', 1440],
      ['en', 'dark', 390],
      ['ar', 'dark', 1440],
      ['ar', 'light', 390],
    ] as const) {
      await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
      await page.evaluate((locale) => localStorage.setItem('locale', locale), language);
      await page.goto(`/?theme_mode=${mode}#/audit`);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      const grid = page.getByRole('grid');
      // A full load on a shared, loaded machine: the page's chunks may take more than the default.
      await expect(grid.locator('.MuiDataGrid-row').first()).toBeVisible({ timeout: 30_000 });
      await page.screenshot({ path: `${SCREENS}/audit-list-${language}-${mode}-${width}.png` });
      await grid.locator('.MuiDataGrid-row').first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.screenshot({ path: `${SCREENS}/audit-detail-${language}-${mode}-${width}.png` });
      await page.keyboard.press('Escape');
      await page.goto(`/?theme_mode=${mode}#/audit/streaming`);
      await expect(page.getByRole('button', { name: language === 'ar' ? 'حفظ' : 'Save' })).toBeVisible();
      await page.screenshot({ path: `${SCREENS}/audit-streaming-${language}-${mode}-${width}.png`, fullPage: true });
    }
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
  });
});

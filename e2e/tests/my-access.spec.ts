import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import { createUser, snackbar } from '../identity-helpers.js';
import { type Gateway, gatewayPort, startGateway } from './gateway-helpers.js';

/** Console errors and refused API calls while the test runs: a plain user's screens make none. */
function watchTrouble(page: Page): string[] {
  const trouble: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') trouble.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400)
      trouble.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return trouble;
}

/** Serious and critical WCAG 2.1 A/AA violations on the page. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

test.describe('My access (issue 20)', () => {
  let gateway: Gateway;
  let clientConfig: string;
  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(120_000);
    gateway = await startGateway(request, baseURL ?? '', 'e2e-access');
    // What the user's own machine adds to the page's command: their key, no host key prompt.
    clientConfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-e2e-access-')), 'config');
    fs.writeFileSync(
      clientConfig,
      [
        `IdentityFile ${gateway.user.keyFile}`,
        'IdentitiesOnly yes',
        'StrictHostKeyChecking no',
        'UserKnownHostsFile /dev/null',
        'BatchMode yes',
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
  });
  test.afterAll(() => {
    gateway?.stop();
    if (clientConfig) fs.rmSync(path.dirname(clientConfig), { recursive: true, force: true });
  });

  test('a plain user lands on My access, copies the ssh command, and the command connects', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const trouble = watchTrouble(page);
    await signIn(page, gateway.user);
    await expect(page).toHaveURL(/#\/access$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My access' })).toBeVisible();
    expect(await mainNav(page).getByRole('link').first().getAttribute('aria-label')).toBe('My access');
    const card = page.getByRole('article', { name: gateway.hostname });
    await expect(card).toContainText('SSH shell');
    await expect(card).toContainText('Online');
    await expect(card).toContainText('Granted to you directly');
    await expect(card).toContainText(gateway.definition.name);

    await card.getByRole('button', { name: `Copy the ssh command for ${gateway.hostname}` }).click();
    await expect(snackbar(page)).toHaveText('Copied to the clipboard');
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toBe(`ssh -p ${gatewayPort()} ${gateway.user.email}@${gateway.hostname}@127.0.0.1`);
    // Pasted into a shell as it is; only the user's key and host-key choices come from their own config.
    const run = spawnSync(
      '/bin/sh',
      ['-c', `${command.replace(/^ssh /, `ssh -F ${clientConfig} `)} 'echo page-$((6*7))'`],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.stdout + run.stderr).toContain('page-42');
    expect(run.status).toBe(0);

    // My account agrees: the host is listed, and its ssh example names the real port.
    await page.goto('/#/account');
    await expect(page.getByRole('listitem').filter({ hasText: gateway.hostname })).toBeVisible();
    await expect(page.getByText(`ssh -p ${gatewayPort()} ${gateway.user.email}@<agent>@127.0.0.1`)).toBeVisible();
    await expect(page.getByText(/not in any group/)).toHaveCount(0);
    expect(trouble).toEqual([]);
  });

  test('reads well in light and dark, English and Arabic, on a desktop and a phone', async ({ page }) => {
    test.setTimeout(240_000);
    await signIn(page, gateway.user);
    const found: string[] = [];
    for (const language of ['en', 'ar'] as const)
      for (const mode of ['light', 'dark'] as const)
        for (const [width, height] of [
          [1440, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width, height });
          await page.evaluate((locale) => localStorage.setItem('locale', locale), language);
          await page.goto(`/?theme_mode=${mode}#/access`);
          await page.reload();
          await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
          const card = page.getByRole('article', { name: gateway.hostname });
          await expect(card).toBeVisible();
          // Nothing runs off the side: the page never scrolls sideways, and commands wrap inside their card.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          const cardBox = await card.boundingBox();
          for (const block of await card.locator('pre').all()) {
            const box = await block.boundingBox();
            expect(box && cardBox && box.x >= cardBox.x - 1 && box.x + box.width <= cardBox.x + cardBox.width + 1).toBe(
              true,
            );
          }
          await page.screenshot({ path: `${SCREENS}/my-access-${language}-${mode}-${width}.png`, fullPage: true });
          found.push(...(await violations(page)).map((v) => `${language} ${mode} ${width}: ${v}`));
        }
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    expect(found, found.join('\n')).toEqual([]);
  });

  test('a new user with no reach is greeted with whom to ask, never an error', async ({ page }) => {
    const trouble = watchTrouble(page);
    const person = await createUser(page.request, 'e2e-newcomer');
    await signIn(page, person);
    await expect(page).toHaveURL(/#\/access$/);
    await expect(page.getByRole('heading', { name: 'You cannot reach any host yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: ACCOUNTS.admin.email })).toHaveAttribute(
      'href',
      `mailto:${ACCOUNTS.admin.email}`,
    );
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.goto('/?theme_mode=light#/access');
    await expect(page.getByRole('heading', { name: 'You cannot reach any host yet' })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/my-access-empty-en-light-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.goto('/?theme_mode=dark#/access');
    await page.reload();
    await expect(page.getByRole('link', { name: ACCOUNTS.admin.email })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/my-access-empty-ar-dark-390.png`, fullPage: true });
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    expect(trouble).toEqual([]);
  });
});

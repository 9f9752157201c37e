import { AxeBuilder } from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, mainNav, signIn } from '../fixtures.js';
import { adminToken, callApi } from '../identity-helpers.js';

/** Every screen a signed-in administrator reaches (spec §2.2), with what shows it is ready. */
const SIGNED_IN: readonly string[] = [
  '/recordings',
  '/hostsDashboard',
  '/groups',
  '/hosts',
  '/roles',
  '/tunnels',
  '/users',
  '/registrationKeys',
  '/settings?section=license',
  '/settings?section=certificate',
  '/settings?section=general',
  '/settings?section=security',
  '/settings?section=sso',
  '/settings?section=versions',
  '/systemStatus',
  '/account',
  '/access',
  '/error-pages/error-404',
];
const SIGNED_OUT: readonly string[] = [
  '/signin',
  '/signup',
  '/forget-password',
  '/reset-password',
  '/sso?error=An%20example%20refusal',
  '/error-pages/error-500',
  '/error-pages/maintenance',
];

/** Waits until nothing is loading: no progress indicator, and the network quiet for a moment. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
}

/** The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page, described. */
async function violations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact ?? ''}) ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} [${(n.any[0]?.message ?? n.failureSummary ?? '').replace(/\s+/g, ' ')}]`)
          .join(' | ')}`,
    );
}

/** Opens a screen with the theme mode in its query (spec §2.4) and waits for it to settle. */
async function visit(page: Page, path: string, mode: string) {
  await page.goto(`/#${path}${path.includes('?') ? '&' : '?'}theme_mode=${mode}`);
  await settled(page);
}

for (const locale of ['en', 'ar'] as const)
  for (const mode of ['light', 'dark'] as const)
    test.describe(`accessibility in ${locale}, ${mode}`, () => {
      test('no serious or critical axe violation on any screen', async ({ page, request }, testInfo) => {
        test.setTimeout(300_000);
        // A recording to open in the player: the newest finished one.
        const res = await callApi(request, await adminToken(request), 'GET', '/api/recording?live=false&limit=1');
        const recording = ((await res.json()) as { recordings: { id: string }[] }).recordings[0]?.id;
        await signIn(page, ACCOUNTS.admin);
        await page.evaluate((l) => localStorage.setItem('locale', l), locale);
        await page.reload();
        const found: string[] = [];
        for (const path of [...SIGNED_IN, ...(recording ? [`/recordings/${recording}`] : [])]) {
          await visit(page, path, mode);
          await expect(mainNav(page)).toBeVisible();
          expect(await page.locator('html').getAttribute('dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr');
          found.push(...(await violations(page, path)));
        }
        await page.goto('/#/signout');
        await expect(page).toHaveURL(/#\/signin/);
        for (const path of SIGNED_OUT) {
          await visit(page, path, mode);
          found.push(...(await violations(page, path)));
        }
        await testInfo.attach('axe-violations.txt', { body: found.join('\n'), contentType: 'text/plain' });
        expect(found, found.join('\n')).toEqual([]);
      });
    });

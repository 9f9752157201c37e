import { AxeBuilder } from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi } from '../identity-helpers.js';

/** Every navigation style of spec §2.5, as the nav_style query setting names them. */
const NAV_STYLES = [
  'standard',
  'default',
  'header-user',
  'header-user-mini',
  'mini-sidebar-toggle',
  'mini',
  'drawer',
  'bit-bucket',
  'h-default',
  'hor-light-nav',
  'hor-dark-layout',
] as const;

/** Every screen an administrator reaches (spec §2.2), by a short name for the screenshot files. */
const SCREENS_TO_VISIT: readonly (readonly [string, string])[] = [
  ['sessions', '/recordings'],
  ['dashboard', '/hostsDashboard'],
  ['groups', '/groups'],
  ['agents', '/hosts'],
  ['roles', '/roles'],
  ['tunnels', '/tunnels'],
  ['users', '/users'],
  ['keys', '/registrationKeys'],
  ['settings', '/settings?section=sso'],
  ['status', '/systemStatus'],
  ['account', '/account'],
];

/**
 * Every screen in the two frames that leave content the least width (the full sidebar: 1440 − 19rem;
 * the horizontal layouts' 1140 px box); every other frame on the screens whose content is widest
 * (the sessions grid, settings, the player). The content does not change with the frame, only the
 * width left to it, so the other 9 × 9 combinations add time (about a second each) and no check.
 */
const EVERY_SCREEN_IN: readonly string[] = ['standard', 'h-default'];
const WIDEST_SCREENS: readonly string[] = ['sessions', 'settings', 'player'];

async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
}

/**
 * English in light and Arabic in dark: every direction and every mode once. The frame's widths do not
 * change with the mode, and each mode's contrast is checked on every screen in both languages by
 * accessibility.spec.ts, so the two other pairs added about 4 minutes to CI and no check.
 */
const PAIRS = [
  ['en', 'light'],
  ['ar', 'dark'],
] as const;

for (const [locale, mode] of PAIRS) {
  test(`every screen in the narrowest frames, the widest screens in every navigation style, ${locale}, ${mode}`, async ({
    page,
    request,
  }) => {
    test.setTimeout(600_000);
    const res = await callApi(request, await adminToken(request), 'GET', '/api/recording?live=false&limit=1');
    const recording = ((await res.json()) as { recordings: { id: string }[] }).recordings[0]?.id;
    const screens = [...SCREENS_TO_VISIT, ...(recording ? [['player', `/recordings/${recording}`] as const] : [])];
    await signIn(page, ACCOUNTS.admin);
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.reload();
    const dir = `${SCREENS}/layouts/${locale}-${mode}`;
    const violations: string[] = [];
    for (const style of NAV_STYLES) {
      for (const [name, path] of screens) {
        if (!EVERY_SCREEN_IN.includes(style) && !WIDEST_SCREENS.includes(name)) continue;
        await page.goto(`/#${path}${path.includes('?') ? '&' : '?'}nav_style=${style}&theme_mode=${mode}`);
        await expect(page.locator('main')).toBeVisible();
        await settled(page);
        expect(await page.locator('html').getAttribute('dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr');
        // The frame fits the window: nothing scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
        await page.screenshot({ path: `${dir}/${style}-${name}.png`, animations: 'disabled' });
        // Each style's frame once (on the sessions screen) through axe-core as well.
        if (name !== 'sessions') continue;
        const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        for (const v of result.violations)
          if (v.impact === 'serious' || v.impact === 'critical')
            violations.push(`${style}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
      }
    }
    expect(violations, violations.join('\n')).toEqual([]);
  });
}

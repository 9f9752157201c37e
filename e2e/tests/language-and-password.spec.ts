import { expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';

test.describe('languages', () => {
  test('Arabic turns the whole layout right to left, and the choice survives a reload', async ({ page }) => {
    // The mirroring styles (stylis-plugin-rtl, lib/rtl-cache.ts) load only for a right-to-left console.
    const rtlChunks: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/stylis-rtl-[^/]*\.js$/.test(request.url())) rtlChunks.push(request.url());
    });
    // Styles written through the mirroring cache (emotion's key muirtl) rather than the plain one.
    const mirrored = page.locator('style[data-emotion^="muirtl"]').first();
    await signIn(page, ACCOUNTS.admin);
    expect(rtlChunks).toEqual([]);
    await page.getByRole('button', { name: /change language/i }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(mirrored).toBeAttached();
    expect(rtlChunks).toHaveLength(1);
    const nav = await mainNav(page).boundingBox();
    const viewport = page.viewportSize();
    expect(nav && viewport && nav.x > viewport.width / 2).toBe(true);
    await page.screenshot({ path: `${SCREENS}/shell-admin-ar-dark.png` });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(mirrored).toBeAttached();
    await page.getByRole('button', { name: /تغيير اللغة|change language/i }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  });

  test('the page is in its mode from its first paint, before the console’s code has run', async ({ page }) => {
    // The console's first render waits for its code, its language and the opened screen's code. The
    // script in <head> (public/page-canvas.js) paints the canvas before all that, so a dark console
    // never flashes white. Holding the console's entry module back shows the page as it is meanwhile.
    let held = 0;
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      held += 1;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    const beforeTheConsole = async (url: string) => {
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => document.readyState !== 'loading');
      return page.evaluate(() => ({
        canvas: getComputedStyle(document.documentElement).backgroundColor,
        rendered: (document.getElementById('root')?.childElementCount ?? 0) > 0,
      }));
    };
    expect(await beforeTheConsole('/#/signin')).toEqual({ canvas: 'rgb(27, 27, 31)', rendered: false });
    expect(await beforeTheConsole('/?theme_mode=light#/signin')).toEqual({
      canvas: 'rgb(244, 246, 251)',
      rendered: false,
    });
    expect(held).toBe(2);
    // Once the console runs, the canvas stays in its mode.
    await expect(page.getByRole('button', { name: /sign in/i })).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(
      'rgb(244, 246, 251)',
    );
  });

  test('the light theme is available from the URL', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    await page.goto('/?theme_mode=light#/recordings');
    // A new query string loads the page again; the body has its theme's background only once the console
    // has rendered (before that it is transparent, which reads as 0, 0, 0), so wait for the screen first.
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    const brightness = async () => {
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
      return (r ?? 0) + (g ?? 0) + (b ?? 0);
    };
    await expect.poll(brightness).toBeGreaterThan(600);
    await page.screenshot({ path: `${SCREENS}/shell-admin-en-light.png` });
  });
});

test.describe('changing the password', () => {
  test('the dialog enforces the rules, saves, and the new password signs in', async ({ page }) => {
    await signIn(page, ACCOUNTS.plainUser);
    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: /change password/i }).click();
    const dialog = page.getByRole('dialog');
    const save = dialog.getByRole('button', { name: /save/i });
    await dialog.getByLabel('New Password', { exact: true }).fill('short');
    await dialog.getByLabel('Confirm New Password').fill('short');
    await expect(dialog.getByText('Passwords need to be at least 8 characters long').first()).toBeVisible();
    await expect(save).toBeDisabled();
    await dialog.getByLabel('New Password', { exact: true }).fill('grace-new-password');
    await dialog.getByLabel('Confirm New Password').fill('grace-new-passwort');
    await expect(dialog.getByText('Passwords do not match')).toBeVisible();
    await dialog.getByLabel('Confirm New Password').fill('grace-new-password');
    await dialog.getByLabel('Your Current Password').fill(ACCOUNTS.plainUser.password);
    await page.screenshot({ path: `${SCREENS}/change-password-en-dark.png` });
    await save.click();
    await expect(dialog).toBeHidden();
    await page.goto('/#/signout');
    await expect(page).toHaveURL(/#\/signin$/);
    await signIn(page, { email: ACCOUNTS.plainUser.email, password: 'grace-new-password' });
  });
});

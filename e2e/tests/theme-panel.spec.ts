import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';

/** The theme settings the console keeps in this browser. */
async function savedTheme(page: Page): Promise<Record<string, unknown>> {
  const raw = await page.evaluate(() => localStorage.getItem('themeSettings'));
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

function panel(page: Page) {
  return page.getByRole('dialog', { name: 'Customize the console' });
}

test.describe('theme settings and mock data', () => {
  test('the Customize panel changes navigation style, mode and style at once, and they survive a reload', async ({
    page,
  }) => {
    await signIn(page, ACCOUNTS.admin, '/groups');
    await page.getByRole('button', { name: 'Customize' }).click();
    await expect(panel(page)).toBeVisible();
    await panel(page).getByRole('group', { name: 'Theme mode' }).getByRole('button', { name: 'Light' }).click();
    await panel(page).getByRole('group', { name: 'Theme style' }).getByRole('button', { name: 'Modern' }).click();
    await page.screenshot({ path: `${SCREENS}/customize-panel-en-light.png` });
    await page.keyboard.press('Escape');
    await expect(panel(page)).toBeHidden();
    await expect(page.getByRole('button', { name: 'Customize' })).toBeFocused();
    // Another navigation style is another frame around the screen.
    await page.getByRole('button', { name: 'Customize' }).click();
    await panel(page).getByRole('radio', { name: 'Horizontal, dark header' }).click();
    await expect(page.getByText('System Manager')).toBeVisible();
    expect(await savedTheme(page)).toMatchObject({ navStyle: 'hor-dark-layout', mode: 'light', themeStyle: 'modern' });

    await page.reload();
    await expect(page.getByText('System Manager')).toBeVisible();
    await expect(mainNav(page)).toBeVisible();

    // Right to left, the panel opens on the left.
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.reload();
    await page.getByRole('button', { name: 'تخصيص' }).click();
    const box = await page.getByRole('dialog').boundingBox();
    expect(box?.x).toBeLessThan(100);
    await page.screenshot({ path: `${SCREENS}/customize-panel-ar-light.png` });
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.reload();

    await page.getByRole('button', { name: 'Customize' }).click();
    await panel(page).getByRole('button', { name: 'Reset to defaults' }).click();
    await expect(page.getByText('System Manager')).toHaveCount(0);
    // Back to the defaults of spec §2.9: nothing of the choices is kept, the header-user sidebar returns.
    expect(await savedTheme(page)).not.toMatchObject({ navStyle: 'hor-dark-layout' });
    await expect(page.getByRole('region', { name: 'Signed-in user' })).toBeVisible();
  });

  test("'Use Mock Data' runs the console on generated data, marked as such, until turned off", async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/groups');
    await page.getByRole('button', { name: 'Customize' }).click();
    await panel(page).getByRole('switch', { name: 'Use Mock Data' }).click();
    // Switching signs out and reloads: the sign-in screen, with the mark and its hint.
    const mark = page.getByText('Mock data — not your server');
    await expect(mark).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Sign in with any email and any password.')).toBeVisible();
    await page.getByLabel(/email/i).fill('someone@example.test');
    await page.getByLabel(/^password/i).fill('anything');
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect(mainNav(page)).toBeVisible();
    await expect(mark).toBeVisible();
    await page.goto('/#/users');
    // The generated organisation (40 people, and whoever signed in), not the server's.
    await expect(page.getByText('Matching users: 41')).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/mock-data-users-en-dark.png` });

    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect(mark).toBeHidden({ timeout: 20_000 });
    await signIn(page, ACCOUNTS.admin);
    await page.goto('/#/users');
    await expect(page.getByText(/^Matching users: \d+$/)).toBeVisible();
    await expect(page.getByText('Matching users: 41')).toHaveCount(0);
  });
});

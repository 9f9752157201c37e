import { expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';

test.describe('signing in and out', () => {
  test('an unknown visitor is sent to sign-in, and after it to the page they asked for', async ({ page }) => {
    await page.goto('/#/users');
    await expect(page).toHaveURL(/#\/signin$/);
    await page.screenshot({ path: `${SCREENS}/signin-en-dark.png` });
    await page.getByLabel(/email/i).fill(ACCOUNTS.admin.email);
    await page.getByLabel(/^password/i).fill(ACCOUNTS.admin.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect(page).toHaveURL(/#\/users$/);
  });

  test('a wrong password shows the server’s message and stays on sign-in', async ({ page }) => {
    await page.goto('/#/signin');
    await page.getByLabel(/email/i).fill(ACCOUNTS.admin.email);
    await page.getByLabel(/^password/i).fill('not-the-password');
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect(page.getByText('Invalid email or password.')).toBeVisible();
    await expect(page).toHaveURL(/#\/signin$/);
  });

  test('an invalid email is caught before any call', async ({ page }) => {
    await page.goto('/#/signin');
    await page.getByLabel(/email/i).fill('not-an-email');
    await page.getByLabel(/^password/i).fill('whatever1');
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect(page.getByText('The Email you entered is not a valid format!')).toBeVisible();
  });

  test('the first administrator lands on Sessions with the dark header-user shell', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    await expect(page).toHaveURL(/#\/recordings$/);
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(150);
    await expect(page.getByText(/2\.0\.0/).first()).toBeVisible();
    await expect(page.getByText(/20250930\.1/).first()).toBeVisible();
    const year = Math.max(new Date().getFullYear(), 2024);
    await expect(page.getByText(new RegExp(`©\\s*${year}`))).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/shell-admin-en-dark.png` });
  });

  test('signing out shows the signed-out page, then sign-in, and the token no longer works', async ({ page }) => {
    await signIn(page, ACCOUNTS.operator);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: /logout/i }).click();
    await expect(page.getByText('You have been logged out')).toBeVisible();
    await expect(page).toHaveURL(/#\/signin$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const res = await page.request.get('/api/user/me', { headers: { 'authentication-token': token ?? '' } });
    expect(res.status()).toBe(401);
  });
});

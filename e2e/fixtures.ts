import { type Page, expect } from '@playwright/test';

/** Accounts the e2e server has: the first admin and the demo users (npm run demo). */
export const ACCOUNTS = {
  admin: { email: 'admin@e2e.gatehouse.test', password: 'e2e-admin-password' },
  hostViewer: { email: 'farid.nasser@demo.gatehouse.test', password: 'Gatehouse-demo-1' },
  plainUser: { email: 'grace.kim@demo.gatehouse.test', password: 'Gatehouse-demo-1' },
  operator: { email: 'bruno.silva@demo.gatehouse.test', password: 'Gatehouse-demo-1' },
} as const;

/** Signs in through the sign-in screen and waits for the shell. */
export async function signIn(page: Page, account: { email: string; password: string }, path = '/'): Promise<void> {
  await page.goto(`/#${path === '/' ? '/signin' : path}`);
  await page.getByLabel(/email/i).fill(account.email);
  await page.getByLabel(/^password/i).fill(account.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(mainNav(page)).toBeVisible();
}

/** The sidebar navigation. */
export function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** Where screenshots for people to look at are kept (test artefacts). */
export const SCREENS = 'e2e/artifacts/screens';

import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, mainNav, signIn } from '../fixtures.js';

const ALL_ENTRIES = [
  'My access',
  'Status',
  'Sessions',
  'Dashboard',
  'Groups',
  'Agents',
  'Roles',
  'Tunnels',
  'Users',
  'Keys',
  'Audit',
  'Settings',
];

/** The entry names of the sidebar, without the counts beside them. */
async function entries(page: Page): Promise<string[]> {
  const links = mainNav(page).getByRole('link');
  const names: string[] = [];
  for (const link of await links.all()) {
    const label = (await link.getAttribute('aria-label')) ?? (await link.innerText());
    names.push(label.split('\n')[0]?.trim() ?? '');
  }
  return names;
}

test.describe('navigation by permission', () => {
  test('an administrator sees My access, the ten entries in the order of the spec, and Audit', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    expect(await entries(page)).toEqual(ALL_ENTRIES);
  });

  test('a user holding only list-host sees My access, Dashboard, Agents and Users', async ({ page }) => {
    await signIn(page, ACCOUNTS.hostViewer);
    expect(await entries(page)).toEqual(['My access', 'Dashboard', 'Agents', 'Users']);
    await expect(page).toHaveURL(/#\/hostsDashboard$/i);
  });

  test('a route the user may not open sends them to the fallback page', async ({ page }) => {
    await signIn(page, ACCOUNTS.hostViewer);
    await page.goto('/#/roles');
    await expect(page).toHaveURL(/#\/hostsDashboard$/i);
  });

  test('every entry opens its screen with its title and no invented data', async ({ page }) => {
    // Twelve screens, Sessions among them with 10,000 recordings: more than a minute on a loaded machine.
    test.setTimeout(150_000);
    await signIn(page, ACCOUNTS.admin);
    for (const name of ALL_ENTRIES) {
      await mainNav(page)
        .getByRole('link', { name: new RegExp(`^${name}`) })
        .click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(name === 'Status' ? /Status/ : name);
    }
  });

  test('the Users count beside its entry comes from the server', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    const res = await page.request.get('/api/navigation/counts', {
      headers: { 'authentication-token': (await page.evaluate(() => localStorage.getItem('token'))) ?? '' },
    });
    const counts = (await res.json()) as { totalUsers: number };
    await expect(mainNav(page).getByRole('link', { name: /^Users/ })).toContainText(String(counts.totalUsers));
  });

  test('an unknown path goes to the 404 page', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    await page.goto('/#/no/such/page');
    await expect(page).toHaveURL(/#\/error-pages\/error-404$/);
  });
});

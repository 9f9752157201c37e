import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { apiToken, createUser, uniqueEmail } from './users-api.js';

const EMMA = { email: 'emma.rossi@demo.gatehouse.test', password: 'Gatehouse-demo-1' };

function grid(page: Page) {
  return page.getByRole('grid', { name: 'Users' });
}

/** Types into the search box and waits for the grid to show the email's row. */
async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(text);
}

test.describe('users screen', () => {
  test('an administrator adds a user, finds it in the list, and cannot add it twice', async ({ page }) => {
    const email = uniqueEmail('added');
    await signIn(page, ACCOUNTS.admin, '/users');
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel(/^Email/).fill('not-an-email');
    await dialog.getByLabel(/^Password/).fill('short');
    await dialog.getByLabel(/^Confirm password/).fill('different');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(dialog.getByText('The Email you entered is not a valid format!')).toBeVisible();
    await expect(dialog.getByText('Passwords need to be at least 8 characters long')).toBeVisible();
    await dialog.getByLabel(/^Email/).fill(email);
    await dialog.getByLabel(/^Name/).fill('Added Person');
    await dialog.getByLabel(/^Password/).fill('added-password-1');
    await dialog.getByLabel(/^Confirm password/).fill('added-password-2');
    await expect(dialog.getByText('Passwords do not match')).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/users-add-dialog-en-dark.png` });
    await dialog.getByLabel(/^Confirm password/).fill('added-password-1');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByText(`User ${email} created`)).toBeVisible();
    await expect(dialog).toBeHidden();
    await search(page, email);
    const row = grid(page).getByRole('row', { name: new RegExp(email) });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Added Person');
    await expect(row).toContainText('user');

    await page.getByRole('button', { name: 'Add user' }).click();
    await dialog.getByLabel(/^Email/).fill(email);
    await dialog.getByLabel(/^Password/).fill('added-password-1');
    await dialog.getByLabel(/^Confirm password/).fill('added-password-1');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByText('The user you are trying to add has already been added.')).toBeVisible();
    await expect(dialog).toBeVisible();
  });

  test('the search box finds a user by name on the server', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/users');
    await expect(grid(page).getByRole('row', { name: /alice\.martin@/ })).toBeVisible();
    await search(page, 'Emma Ros');
    await expect(grid(page).getByRole('row', { name: /emma\.rossi@demo\.gatehouse\.test/ })).toBeVisible();
    await expect(grid(page).getByRole('row', { name: /alice\.martin@/ })).toHaveCount(0);
    await expect(page.getByText('Matching users: 1')).toBeVisible();
    await search(page, 'nobody-has-this-name');
    await expect(grid(page).getByText('No user matches “nobody-has-this-name”.')).toBeVisible();
  });

  test('sorting by a column asks the server for that order', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/users');
    await expect(grid(page).getByRole('row', { name: /alice\.martin@/ })).toBeVisible();
    const ascending = page.waitForRequest(/api\/user\?limit=25&offset=0&sort=name&order=asc/);
    await grid(page).getByRole('columnheader', { name: 'Name' }).click();
    await ascending;
    await expect(grid(page).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    const descending = page.waitForRequest(/api\/user\?limit=25&offset=0&sort=name&order=desc/);
    await grid(page).getByRole('columnheader', { name: 'Name' }).click();
    await descending;
    // Users without a name show a dash; where the database puts them is its own business.
    const names = (await grid(page).locator('[data-field="name"][role="gridcell"]').allInnerTexts()).filter(
      (name) => name !== '—',
    );
    expect(names.length).toBeGreaterThan(1);
    expect([...names].sort((a, b) => b.localeCompare(a))).toEqual(names);
  });

  test('an administrator deletes a user after a confirmation naming the email', async ({ page, request }) => {
    const { email } = await createUser(request, 'to-delete');
    await signIn(page, ACCOUNTS.admin, '/users');
    await search(page, email);
    await grid(page)
      .getByRole('button', { name: `Delete ${email}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete user' });
    await expect(confirm).toContainText(email);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('User Deleted')).toBeVisible();
    await expect(grid(page).getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
    await expect(grid(page).getByText(`No user matches “${email}”.`)).toBeVisible();
  });

  test('an administrator sends a password reset and sees the server’s message', async ({ page, request }) => {
    const { email } = await createUser(request, 'to-reset');
    await signIn(page, ACCOUNTS.admin, '/users');
    await search(page, email);
    await grid(page)
      .getByRole('button', { name: `Send a password reset to ${email}` })
      .click();
    await page
      .getByRole('dialog', { name: 'Send a password reset' })
      .getByRole('button', { name: 'Send link' })
      .click();
    await expect(page.getByText(`Password reset email sent to ${email}.`)).toBeVisible();
  });

  test('a user without list-user sees only themselves, with no add or delete buttons', async ({ page, request }) => {
    const account = await createUser(request, 'only-self', 'Only Self');
    await signIn(page, account, '/users');
    await expect(page.getByText('You can see only your own account.')).toBeVisible();
    await expect(grid(page).getByRole('row', { name: new RegExp(account.email) })).toBeVisible();
    // The header row and the user's own row.
    await expect(grid(page).getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Add user' })).toHaveCount(0);
    await expect(grid(page).getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await expect(page.getByRole('searchbox')).toHaveCount(0);
  });

  test('an identity administrator gives a user a role and takes it away', async ({ page, request }) => {
    const { email } = await createUser(request, 'roles');
    await signIn(page, EMMA, '/users');
    await expect(page.getByRole('button', { name: 'Add user' })).toHaveCount(0);
    await search(page, email);
    await grid(page)
      .getByRole('button', { name: `Manage roles of ${email}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Roles of ${email}` });
    await expect(dialog.getByRole('list', { name: 'Roles held' })).toContainText('user');
    await dialog.getByLabel('Role to add').click();
    // Emma may give only roles whose permissions she holds herself: auditor needs list-recording.
    await expect(page.getByRole('option', { name: 'identity-admin' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'auditor' })).toHaveCount(0);
    await page.getByRole('option', { name: 'identity-admin' }).click();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText(`Role identity-admin given to ${email}`)).toBeVisible();
    const held = dialog.getByRole('list', { name: 'Roles held' });
    await expect(held).toContainText('identity-admin');
    await page.screenshot({ path: `${SCREENS}/users-roles-dialog-en-dark.png` });
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The list refreshes after the change.
    await expect(grid(page).getByRole('row', { name: new RegExp(email) })).toContainText('identity-admin');
    await grid(page)
      .getByRole('button', { name: `Manage roles of ${email}` })
      .click();
    await dialog.getByRole('button', { name: 'Remove role identity-admin' }).click();
    await expect(page.getByText('Role identity-admin removed')).toBeVisible();
    await expect(held).not.toContainText('identity-admin');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(grid(page).getByRole('row', { name: new RegExp(email) })).not.toContainText('identity-admin');
  });

  test('group names are read whole at 1440×900; at 390×844 the list does not scroll sideways and keeps the actions in view', async ({
    page,
    request,
  }) => {
    const account = await createUser(request, 'grouped', 'Grouped User');
    const token = await apiToken(request);
    const suffix = uniqueEmail('g').slice(2, 10);
    const groups = [`Database administrators of the payments platform ${suffix}`, `On-call ${suffix}`];
    for (const name of groups) {
      const headers = { 'authentication-token': token };
      expect((await request.post('/api/group', { headers, data: { name } })).status()).toBe(201);
      const put = await request.put(`/api/group/${encodeURIComponent(name)}/users`, {
        headers,
        data: { users: [account.email] },
      });
      expect(put.ok()).toBe(true);
    }
    await signIn(page, ACCOUNTS.admin, '/users');
    await search(page, account.email);
    const row = grid(page).getByRole('row', { name: new RegExp(account.email) });
    await expect(row).toBeVisible();
    // Each group's chip shows its whole name (wrapped inside the chip, not cut at the cell's edge).
    for (const name of groups) {
      const chip = row.locator('.MuiChip-label', { hasText: name });
      await expect(chip).toHaveText(name);
      const cut = await chip.evaluate((label) => {
        const cell = label.closest('[role="gridcell"]');
        const box = label.getBoundingClientRect();
        const edge = cell?.getBoundingClientRect();
        return label.scrollWidth > label.clientWidth + 1 || !edge || box.left < edge.left || box.right > edge.right;
      });
      expect(cut, `${name} is cut`).toBe(false);
    }
    await page.screenshot({ path: `${SCREENS}/users-groups-1440.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row).toContainText(groups[0] ?? '');
    const scroller = grid(page).locator('.MuiDataGrid-virtualScroller');
    const sideways = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(sideways, 'the grid scrolls sideways').toBeLessThanOrEqual(1);
    for (const name of [/Manage roles of/, /Send a password reset to/, /^Delete /]) {
      const box = await row.getByRole('button', { name }).boundingBox();
      expect(box, String(name)).not.toBeNull();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390, `${String(name)} in view`).toBe(true);
    }
    await page.screenshot({ path: `${SCREENS}/users-groups-390.png` });
  });

  test('screens: the users list in English (dark) and Arabic', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/users');
    await expect(grid(page).getByRole('row', { name: /alice\.martin@/ })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/users-list-en-dark.png` });
    await page.getByRole('button', { name: /change language/i }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('grid', { name: 'المستخدمون' })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/users-list-ar-dark.png` });
    await page.getByRole('button', { name: /تغيير اللغة/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
  });
});

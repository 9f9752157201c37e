import { expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import {
  adminToken,
  callApi,
  createUser,
  navEntries,
  pick,
  signOutOfConsole,
  snackbar,
  storedToken,
  unique,
} from '../identity-helpers.js';

const DUPLICATE = 'That role name is already in use.  Please use a different name.';
const EMMA = { email: 'emma.rossi@demo.gatehouse.test', password: 'Gatehouse-demo-1' };

test.describe('roles', () => {
  test('an administrator creates a role, gives it to a user, and that user sees exactly what it allows', async ({
    page,
  }) => {
    const person = await createUser(page.request, 'role-holder');
    const role = unique('readers');
    await signIn(page, ACCOUNTS.admin, '/roles');
    await expect(page.getByRole('heading', { level: 1, name: 'Roles' })).toBeVisible();

    await page.getByRole('button', { name: 'Create role' }).click();
    const create = page.getByRole('dialog', { name: 'Create role' });
    await create.getByLabel('Role name').fill(role);
    await pick(page, create.getByLabel('Permissions'), ['list-group', 'list-user-role']);
    await create.getByRole('button', { name: 'Create role' }).click();
    await expect(snackbar(page)).toHaveText('Role created');
    await expect(create).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(role) });
    await expect(row).toContainText('list-group');
    await expect(row).toContainText('list-user-role');
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/roles-en-dark.png` });

    await row.getByRole('button', { name: role, exact: true }).click();
    const detail = page.getByRole('dialog', { name: `Role ${role}` });
    await pick(page, detail.getByLabel('Users to give the role to'), [person.email]);
    await detail.getByRole('button', { name: 'Give role' }).click();
    await expect(snackbar(page)).toHaveText('Role updated');
    await expect(detail.getByRole('list', { name: `Holders of ${role}` })).toContainText(person.email);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/role-detail-en-dark.png` });

    await signOutOfConsole(page);
    await signIn(page, person);
    expect(await navEntries(page)).toEqual(['My access', 'Groups', 'Roles', 'Users']);

    // A reader of roles: no create, edit or delete controls, and the API refuses those calls.
    await page.goto('/#/roles');
    await expect(page.getByRole('row', { name: new RegExp(role) })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create role' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await expect(page.getByText(/You can look at roles/)).toBeVisible();
    const token = await storedToken(page);
    const created = await callApi(page.request, token, 'POST', '/api/role', { name: unique('sneaky') });
    expect(created.status()).toBe(403);
    expect(((await created.json()) as { message: string }).message).toContain('create-role');
    expect((await callApi(page.request, token, 'DELETE', `/api/role/${role}`)).status()).toBe(403);
  });

  test('a role name in use is refused with the exact text of the spec', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/roles');
    await page.getByRole('button', { name: 'Create role' }).click();
    const create = page.getByRole('dialog', { name: 'Create role' });
    await create.getByLabel('Role name').fill('operator');
    await create.getByRole('button', { name: 'Create role' }).click();
    await expect(snackbar(page)).toBeVisible();
    // textContent keeps both spaces; toHaveText would fold them into one.
    expect(await snackbar(page).textContent()).toBe(DUPLICATE);
    await expect(create).toBeVisible();
  });

  test('an administrator edits a role’s permissions and deletes it after confirming', async ({ page }) => {
    const role = unique('editable');
    const admin = await adminToken(page.request);
    const res = await callApi(page.request, admin, 'POST', '/api/role', { name: role, permissions: ['list-host'] });
    expect(res.status()).toBe(201);
    await signIn(page, ACCOUNTS.admin, '/roles');

    await page
      .getByRole('row', { name: new RegExp(role) })
      .getByRole('button', { name: role, exact: true })
      .click();
    const detail = page.getByRole('dialog', { name: `Role ${role}` });
    await pick(page, detail.getByLabel('Permissions to add'), ['list-group']);
    await detail.getByRole('button', { name: 'Add permissions' }).click();
    await expect(snackbar(page)).toHaveText('Role updated');
    await detail.getByRole('button', { name: `Remove list-host from ${role}` }).click();
    await expect(detail.getByRole('button', { name: `Remove list-host from ${role}` })).toHaveCount(0);
    const after = (await (await callApi(page.request, admin, 'GET', `/api/role/${role}`)).json()) as {
      role: { permissions: string[] };
    };
    expect(after.role.permissions).toEqual(['list-group']);
    await detail.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: `Delete ${role}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete role?' });
    await expect(confirm).toContainText(role);
    await confirm.getByRole('button', { name: 'Delete role' }).click();
    await expect(snackbar(page)).toHaveText('Role deleted');
    await expect(page.getByRole('row', { name: new RegExp(role) })).toHaveCount(0);
  });

  test('the admin role shows every permission and offers no edit or delete', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/roles');
    const row = page.getByRole('row', { name: /^admin/ });
    await expect(row).toContainText('Every permission');
    await expect(page.getByRole('button', { name: 'Delete admin' })).toHaveCount(0);
    await row.getByRole('button', { name: 'admin', exact: true }).click();
    const detail = page.getByRole('dialog', { name: 'Role admin' });
    await expect(detail.getByText(/The admin role holds every permission/)).toBeVisible();
    await expect(detail.getByText('manage-settings')).toBeVisible();
    await expect(detail.getByLabel('Permissions to add')).toHaveCount(0);
    await expect(detail.getByRole('button', { name: /^Remove .* from admin$/ })).toHaveCount(0);
  });

  test('granting a permission one does not hold shows the server’s reason', async ({ page }) => {
    await signIn(page, EMMA, '/roles');
    await page.getByRole('button', { name: 'Create role' }).click();
    const create = page.getByRole('dialog', { name: 'Create role' });
    await create.getByLabel('Role name').fill(unique('hosts'));
    await pick(page, create.getByLabel('Permissions'), ['list-host']);
    await create.getByRole('button', { name: 'Create role' }).click();
    await expect(snackbar(page)).toHaveText('You cannot grant permissions you do not hold yourself: list-host.');
  });

  test('the roles screen reads right to left in Arabic', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin, '/roles');
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1, name: 'الأدوار' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'إنشاء دور' })).toBeVisible();
    await expect(page.getByRole('row', { name: /operator/ })).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/roles-ar-dark.png` });
  });
});

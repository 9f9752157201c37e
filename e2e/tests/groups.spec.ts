import { expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi, pick, snackbar, storedToken, unique } from '../identity-helpers.js';

const DUPLICATE = 'That group name is already in use.  Please use a different name.';
const EMMA = 'emma.rossi@demo.gatehouse.test';

test.describe('groups', () => {
  test('an administrator creates a group, adds a user, nests a group, is refused a cycle, and deletes it', async ({
    page,
  }) => {
    const parent = unique('parent');
    const child = unique('child');
    const admin = await adminToken(page.request);
    expect((await callApi(page.request, admin, 'POST', '/api/group', { name: child })).status()).toBe(201);
    await signIn(page, ACCOUNTS.admin, '/groups');
    await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();

    await page.getByRole('button', { name: 'Create group' }).click();
    const create = page.getByRole('dialog', { name: 'Create group' });
    await create.getByLabel('Group name').fill(parent);
    await create.getByRole('button', { name: 'Create group' }).click();
    await expect(snackbar(page)).toHaveText('Group created');

    // The new group opens, ready for members.
    const detail = page.getByRole('dialog', { name: `Group ${parent}` });
    await expect(detail.getByText('Members of a child group belong to this group too')).toBeVisible();
    await pick(page, detail.getByLabel('Users to add'), ['emma.rossi']);
    await detail.getByRole('button', { name: 'Add users' }).click();
    await expect(snackbar(page)).toHaveText('User added to group');
    await expect(detail.getByRole('list', { name: `Users of ${parent}` })).toContainText(EMMA);

    await detail.getByRole('tab', { name: /Child groups/ }).click();
    await pick(page, detail.getByLabel('Groups to nest'), [child]);
    await detail.getByRole('button', { name: 'Nest groups' }).click();
    await expect(snackbar(page)).toHaveText('Group nested');
    await expect(detail.getByRole('list', { name: `Child groups of ${parent}` })).toContainText(child);
    await expect(detail.getByRole('tab', { name: /Child groups/ })).toContainText('(1)');
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/group-detail-en-dark.png` });
    await detail.getByRole('button', { name: 'Close' }).click();

    // Nesting the parent inside its own child would make a cycle: the server names it.
    await page
      .getByRole('row', { name: new RegExp(child) })
      .getByRole('button', { name: child, exact: true })
      .click();
    const childDetail = page.getByRole('dialog', { name: `Group ${child}` });
    await expect(childDetail.getByText(`Nested in: ${parent}`)).toBeVisible();
    await childDetail.getByRole('tab', { name: /Child groups/ }).click();
    await pick(page, childDetail.getByLabel('Groups to nest'), [parent]);
    await childDetail.getByRole('button', { name: 'Nest groups' }).click();
    await expect(snackbar(page)).toHaveText(
      `Nesting refused: it would make a cycle ${child} → ${parent} → ${child}. A group cannot contain itself.`,
    );
    await childDetail.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: `Delete ${parent}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete group?' });
    await expect(confirm).toContainText(parent);
    await confirm.getByRole('button', { name: 'Delete group' }).click();
    await expect(snackbar(page)).toHaveText('Group deleted');
    await expect(page.getByRole('row', { name: new RegExp(parent) })).toHaveCount(0);
  });

  test('a group name in use, in any case, is refused with the exact text of the spec', async ({ page }) => {
    const name = unique('dup');
    const admin = await adminToken(page.request);
    expect((await callApi(page.request, admin, 'POST', '/api/group', { name })).status()).toBe(201);
    await signIn(page, ACCOUNTS.admin, '/groups');
    await page.getByRole('button', { name: 'Create group' }).click();
    const create = page.getByRole('dialog', { name: 'Create group' });
    await create.getByLabel('Group name').fill(name.toUpperCase());
    await create.getByRole('button', { name: 'Create group' }).click();
    await expect(snackbar(page)).toBeVisible();
    // textContent keeps both spaces; toHaveText would fold them into one.
    expect(await snackbar(page).textContent()).toBe(DUPLICATE);
  });

  test('the search box narrows the list to groups with a matching name or member', async ({ page }) => {
    const name = unique('searchable');
    const admin = await adminToken(page.request);
    await callApi(page.request, admin, 'POST', '/api/group', { name });
    await callApi(page.request, admin, 'PUT', `/api/group/${name}/users`, { users: [EMMA] });
    await signIn(page, ACCOUNTS.admin, '/groups');
    const search = page.getByLabel('Search groups, members or hosts');
    await search.fill('emma.rossi');
    await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
    await search.fill(`${name}-nothing`);
    await expect(page.getByText('Nothing matches your search.')).toBeVisible();
  });

  test('a user without modify-group sees no create, delete or remove controls, and the API refuses them', async ({
    page,
  }) => {
    const name = unique('readonly');
    const admin = await adminToken(page.request);
    await callApi(page.request, admin, 'POST', '/api/group', { name });
    await callApi(page.request, admin, 'PUT', `/api/group/${name}/users`, { users: [EMMA] });
    await signIn(page, ACCOUNTS.operator, '/groups');
    await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create group' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await page.getByRole('button', { name, exact: true }).click();
    const detail = page.getByRole('dialog', { name: `Group ${name}` });
    await expect(detail.getByRole('list', { name: `Users of ${name}` })).toContainText(EMMA);
    await expect(detail.getByLabel('Users to add')).toHaveCount(0);
    await expect(detail.getByRole('button', { name: /^Remove / })).toHaveCount(0);

    const token = await storedToken(page);
    expect((await callApi(page.request, token, 'POST', '/api/group', { name: unique('sneaky') })).status()).toBe(403);
    expect((await callApi(page.request, token, 'DELETE', `/api/group/${name}`)).status()).toBe(403);
    expect((await callApi(page.request, token, 'DELETE', `/api/group/${name}/user/${EMMA}`)).status()).toBe(403);
  });

  test('the list and a group’s detail work from the keyboard', async ({ page }) => {
    const name = unique('keyboard');
    await callApi(page.request, await adminToken(page.request), 'POST', '/api/group', { name });
    await signIn(page, ACCOUNTS.admin, '/groups');
    const search = page.getByLabel('Search groups, members or hosts');
    await search.fill(name);
    await expect(page.getByRole('row')).toHaveCount(2);
    await search.press('Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const detail = page.getByRole('dialog', { name: `Group ${name}` });
    await expect(detail).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(detail.getByRole('tab', { name: /Users/ })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(detail.getByRole('tab', { name: /Agents/ })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(detail.getByRole('tab', { name: /Agents/ })).toHaveAttribute('aria-selected', 'true');
    await expect(detail.getByRole('tabpanel')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(detail).toBeHidden();
  });

  test('an administrator adds an enrolled agent to a group and removes it', async ({ page }) => {
    const admin = await adminToken(page.request);
    const name = unique('hosts');
    const hostname = `${unique('web')}.e2e`;
    await callApi(page.request, admin, 'POST', '/api/group', { name });
    const key = (await (await callApi(page.request, admin, 'POST', '/api/apikey', { description: name })).json()) as {
      key: string;
      uuid: string;
    };
    const enrolled = await page.request.post('/api/agent/register', {
      data: { key: key.key, hostname, os: 1, version: '2.0.0' },
    });
    expect(enrolled.status()).toBe(201);
    await callApi(page.request, admin, 'DELETE', `/api/apikey/${key.uuid}`);

    await signIn(page, ACCOUNTS.admin, '/groups');
    await page.getByRole('button', { name, exact: true }).click();
    const detail = page.getByRole('dialog', { name: `Group ${name}` });
    await detail.getByRole('tab', { name: /Agents/ }).click();
    await pick(page, detail.getByLabel('Agents to add'), [hostname]);
    await detail.getByRole('button', { name: 'Add agents' }).click();
    await expect(snackbar(page)).toHaveText('Host added to group');
    await expect(detail.getByRole('list', { name: `Agents of ${name}` })).toContainText(hostname);
    await expect(detail.getByRole('tab', { name: /Agents/ })).toContainText('(1)');

    await detail.getByRole('button', { name: `Remove ${hostname} from ${name}` }).click();
    await expect(snackbar(page)).toHaveText('Host removed from group');
    await expect(detail.getByText('No agents are in this group yet.')).toBeVisible();
  });
});

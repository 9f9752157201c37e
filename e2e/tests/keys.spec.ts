import { expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi, createUser, snackbar, storedToken, unique } from '../identity-helpers.js';

test.describe('registration keys', () => {
  test('an administrator generates a key, sees the secret once with a copy button, and deletes the key', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const description = unique('berlin-site');
    await signIn(page, ACCOUNTS.admin, '/registrationKeys');
    await expect(page.getByRole('heading', { level: 1, name: 'Registration Keys' })).toBeVisible();

    await page.getByRole('button', { name: 'Generate key' }).first().click();
    const form = page.getByRole('dialog', { name: 'Generate registration key' });
    await form.getByLabel('Description').fill(description);
    await form.getByRole('button', { name: 'Generate' }).click();

    const shown = page.getByRole('dialog', { name: `Key ${description} generated` });
    const keyField = shown.getByLabel('Registration key');
    await expect(keyField).toHaveValue(/^ghk_/);
    await expect(keyField).toHaveAttribute('readonly', '');
    const key = await keyField.inputValue();
    await expect(shown.getByText(/It is not shown again/)).toBeVisible();
    await expect(shown.getByLabel('Agent command')).toHaveValue(
      `npx gatehouse-agent --server ${baseURL ?? ''} --key ${key} --state-dir /var/lib/gatehouse-agent`,
    );
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await expect(snackbar(page)).toHaveText('Copied to the clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/key-shown-once-en-dark.png` });

    // A click beside the dialog does not lose the key; its button does, for good.
    await page.mouse.click(5, 5);
    await expect(shown).toBeVisible();
    await shown.getByRole('button', { name: 'I have copied the key' }).click();
    await expect(shown).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(description) });
    await expect(row).toContainText(ACCOUNTS.admin.email);
    await expect(row).toContainText('Never');
    expect(await page.content()).not.toContain(key);
    const listed = await callApi(page.request, await storedToken(page), 'GET', '/api/apikey');
    expect(await listed.text()).not.toContain(key);
    await page.reload();
    await expect(page.getByRole('row', { name: new RegExp(description) })).toBeVisible();
    expect(await page.content()).not.toContain(key);

    await page.getByRole('button', { name: `Delete the key ${description}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete registration key?' });
    await expect(confirm).toContainText(description);
    await confirm.getByRole('button', { name: 'Delete key' }).click();
    await expect(snackbar(page)).toHaveText('Registration key deleted');
    await expect(page.getByRole('row', { name: new RegExp(description) })).toHaveCount(0);
  });

  test('a holder of list-api-key without the admin role sees why, no buttons, and the API refuses', async ({
    page,
  }) => {
    const admin = await adminToken(page.request);
    const role = unique('key-readers');
    expect(
      (await callApi(page.request, admin, 'POST', '/api/role', { name: role, permissions: ['list-api-key'] })).status(),
    ).toBe(201);
    const person = await createUser(page.request, 'key-reader');
    expect((await callApi(page.request, admin, 'PUT', `/api/role/${role}/users`, { users: [person.email] })).ok()).toBe(
      true,
    );

    await signIn(page, person, '/registrationKeys');
    await expect(page.getByText('Only administrators manage registration keys')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generate key' })).toHaveCount(0);
    await expect(page.getByRole('grid')).toHaveCount(0);
    const token = await storedToken(page);
    expect((await callApi(page.request, token, 'GET', '/api/apikey')).status()).toBe(403);
    const generated = await callApi(page.request, token, 'POST', '/api/apikey', { description: 'sneaky' });
    expect(generated.status()).toBe(403);
    expect(((await generated.json()) as { message: string }).message).toBe(
      'Only holders of the admin role may do this.',
    );
  });
});

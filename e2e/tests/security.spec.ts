import { expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import { callApi, snackbar } from '../identity-helpers.js';
import { apiToken, createUser } from './users-api.js';

test.describe('secrets and live rights in the console', () => {
  test('an administrator reads a reset link in the mail outbox, not in any log, and deletes it', async ({
    page,
    request,
  }) => {
    const account = await createUser(request, 'outbox', 'Olga Outbox');
    const forgot = await request.post('/api/user/forgot-password', { data: { email: account.email } });
    expect(forgot.status()).toBe(200);

    await signIn(page, ACCOUNTS.admin, '/settings?section=outbox');
    const section = page.getByRole('region', { name: 'Mail outbox' });
    await expect(section.getByText(/No mail server is set: messages are kept here/)).toBeVisible();
    await section.getByLabel('Search messages').fill(account.email);
    const row = section.getByRole('row').filter({ hasText: account.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Reset your Gatehouse password');
    await page.screenshot({ path: `${SCREENS}/settings-outbox-en-dark.png`, fullPage: true });

    await row.getByRole('button', { name: `Read the message to ${account.email}` }).click();
    const message = page.getByRole('dialog');
    await expect(message.getByText(/whoever opens it can take over the account/)).toBeVisible();
    await expect(message.getByLabel('Message text')).toContainText(/#\/reset-password\?token=/);
    await page.screenshot({ path: `${SCREENS}/settings-outbox-message-en-dark.png` });
    await message.getByRole('button', { name: /close/i }).click();

    // The Status screen's log of the api component never shows the link.
    const token = await apiToken(request);
    const logs = await callApi(request, token, 'GET', '/api/pods/api/logs');
    if (logs.ok()) expect(await logs.text()).not.toMatch(/reset-password\?token=/);

    await row.getByRole('button', { name: `Delete the message to ${account.email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this message?' });
    await confirm.getByRole('button', { name: 'Delete message' }).click();
    await expect(snackbar(page)).toHaveText('Message deleted');
    await expect(section.getByRole('row').filter({ hasText: account.email })).toHaveCount(0);
  });

  test('the outbox is an administrator’s only: a plain user sees no tab and the call is refused', async ({
    page,
    request,
  }) => {
    // A fresh plain user (the demo's plain user changes its password in another spec).
    const plain = await createUser(request, 'plain');
    await signIn(page, plain, '/settings?section=outbox');
    await expect(page.getByRole('tab', { name: 'Mail outbox' })).toHaveCount(0);
    const login = await request.post('/api/login?include_auth_token', { data: plain });
    const { response } = (await login.json()) as { response: { user: { authentication_token: string } } };
    const answer = await callApi(request, response.user.authentication_token, 'GET', '/api/mail/outbox');
    expect(answer.status()).toBe(403);
  });

  test('a console whose user is deleted signs out within seconds and says why', async ({ page, request }) => {
    const account = await createUser(request, 'revoked', 'Rita Revoked');
    await signIn(page, account);
    await expect(mainNav(page)).toBeVisible();
    // Deleting the account ends its sessions; the console's socket hears why and signs out.
    const admin = await apiToken(request);
    const deleted = await callApi(request, admin, 'DELETE', `/api/user/${encodeURIComponent(account.email)}`);
    expect(deleted.status(), await deleted.text()).toBe(200);
    await expect(page.getByText('You were signed out')).toBeVisible({ timeout: 5_000 });
    // The socket says the account was deleted; a request refused first says the session ended. Either names it.
    await expect(
      page.getByText(/Your Gatehouse account was deleted|your account was changed or deleted/),
    ).toBeVisible();
    await expect(mainNav(page)).toHaveCount(0);
    await page.screenshot({ path: `${SCREENS}/signed-out-revoked-en-dark.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENS}/signed-out-revoked-phone-en-dark.png` });
  });
});

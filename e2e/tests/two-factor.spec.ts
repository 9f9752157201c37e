import { randomBytes } from 'node:crypto';
import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import { addPasskeyOnAccount, addVirtualAuthenticator, codeFor } from '../identity-helpers.js';
import { apiToken, createUser } from './users-api.js';

/** The password step of the sign-in screen. */
async function enterPassword(page: Page, account: { email: string; password: string }) {
  await page.getByLabel(/email/i).fill(account.email);
  await page.getByLabel(/^password/i).fill(account.password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
}

/** Theme and language for a screenshot, set the way the console reads them. */
async function look(page: Page, locale: 'en' | 'ar', mode: 'light' | 'dark', path: string) {
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  await page.goto(`${path}${path.includes('?') ? '&' : '?'}theme_mode=${mode}`);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
}

test.describe('two-factor sign-in', () => {
  test('an administrator requires it for a role; a member must set up an app before anything else, then signs in with its code', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const admin = await apiToken(request);
    const headers = { 'authentication-token': admin };
    const role = `e2e-2fa-${randomBytes(3).toString('hex')}`;
    const member = await createUser(request, 'totp');
    expect(
      (await request.post('/api/role', { headers, data: { name: role, permissions: ['list-host'] } })).status(),
    ).toBe(201);
    expect((await request.put(`/api/role/${role}/users`, { headers, data: { users: [member.email] } })).status()).toBe(
      200,
    );
    expect((await request.put(`/api/role/${role}/two-factor`, { headers, data: { required: true } })).status()).toBe(
      200,
    );

    await page.goto('/#/signin');
    await enterPassword(page, member);
    // Every page leads to the enrolment page until a factor is set up.
    await expect(page).toHaveURL(/#\/account\/two-factor/);
    await expect(page.getByText(/requires two-factor sign-in for your role/)).toBeVisible();
    await page.goto('/#/hosts');
    await expect(page).toHaveURL(/#\/account\/two-factor/);
    await page.screenshot({ path: `${SCREENS}/two-factor-enrol-en.png` });

    await page.getByRole('button', { name: 'Set up' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/two-factor-qr-en.png` });
    const secret = ((await dialog.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await dialog.getByLabel('Code from the app').fill('000000');
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await expect(dialog.getByText(/That code is not right/)).toBeVisible();
    await dialog.getByLabel('Code from the app').fill(codeFor(secret));
    await dialog.getByRole('button', { name: 'Turn on' }).click();

    const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
    await expect(codes.getByRole('listitem')).toHaveCount(10);
    await page.screenshot({ path: `${SCREENS}/two-factor-recovery-codes-en.png` });
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Continue to the console' }).click();
    await expect(mainNav(page)).toBeVisible();
    await page.goto('/#/hosts');
    await expect(page).toHaveURL(/#\/hosts/);

    // Signing in again: the password, then the app's code (a later one: each code counts once).
    await page.goto('/#/signout');
    await expect(page).toHaveURL(/#\/signin/);
    await enterPassword(page, member);
    const step = page.getByRole('form', { name: 'Second step of the sign-in' });
    await expect(step).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/two-factor-sign-in-en.png` });
    await step.getByLabel('Code').fill(codeFor(secret, 1));
    await step.getByRole('button', { name: 'Verify' }).click();
    await expect(mainNav(page)).toBeVisible();

    // The same screens in Arabic and dark.
    await look(page, 'ar', 'dark', '/#/account/two-factor');
    await expect(page.getByRole('heading', { name: 'تسجيل الدخول بعاملين' }).first()).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/two-factor-account-ar-dark.png` });
    await page.goto('/#/signout');
    await look(page, 'ar', 'dark', '/#/signin');
    await page.locator('input[name=email]').fill(member.email);
    await page.locator('input[name=password]').fill(member.password);
    await page.locator('button[type=submit]').click();
    await expect(page.getByRole('form', { name: 'الخطوة الثانية من تسجيل الدخول' })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/two-factor-sign-in-ar-dark.png` });
    // And in light mode, English and Arabic.
    await look(page, 'en', 'light', '/#/signin');
    await enterPassword(page, member);
    await expect(page.getByRole('form', { name: 'Second step of the sign-in' })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/two-factor-sign-in-en-light.png` });
    await look(page, 'ar', 'light', '/#/signin');
    await page.locator('input[name=email]').fill(member.email);
    await page.locator('input[name=password]').fill(member.password);
    await page.locator('button[type=submit]').click();
    const arStep = page.getByRole('form', { name: 'الخطوة الثانية من تسجيل الدخول' });
    await arStep.locator('input[name=code]').fill(codeFor(secret, -1));
    await page.screenshot({ path: `${SCREENS}/two-factor-sign-in-ar-light.png` });
  });

  test('a passkey added on My account signs in alone, and as the second step after a password', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    // WebAuthn needs a host name (an IP address is no relying party): the console on localhost.
    const origin = new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1:18480').port;
    const base = `http://localhost:${origin}`;
    await addVirtualAuthenticator(page);
    const user = await createUser(request, 'passkey', 'Pia Passkey');

    await page.goto(`${base}/#/signin`);
    await enterPassword(page, user);
    await expect(mainNav(page)).toBeVisible();
    await addPasskeyOnAccount(page, base);
    await page.screenshot({ path: `${SCREENS}/two-factor-passkey-added-en.png` });

    // A passkey alone: no email, no password.
    await page.goto(`${base}/#/signout`);
    await expect(page).toHaveURL(/#\/signin/);
    await page.screenshot({ path: `${SCREENS}/sign-in-passkey-en.png` });
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(mainNav(page)).toBeVisible();
    await expect(page.getByRole('button', { name: /user menu/i })).toBeVisible();

    // After a password, the passkey is the second step.
    await page.goto(`${base}/#/signout`);
    await expect(page).toHaveURL(/#\/signin/);
    await enterPassword(page, user);
    const step = page.getByRole('form', { name: 'Second step of the sign-in' });
    await step.getByRole('button', { name: 'Use your passkey' }).click();
    await expect(mainNav(page)).toBeVisible();
  });

  test('an administrator resets the second factors of a user who lost them, from the Users screen', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const member = await createUser(request, 'lost-phone');
    const token = await apiToken(request, member);
    const headers = { 'authentication-token': token };
    const started = await request.post('/api/user/two-factor/totp', { headers });
    expect(started.status()).toBe(200);
    const { secret } = (await started.json()) as { secret: string };
    expect(
      (await request.post('/api/user/two-factor/totp/confirm', { headers, data: { code: codeFor(secret) } })).status(),
    ).toBe(200);

    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, ACCOUNTS.admin, '/users');
    await page.getByLabel('Search users').fill(member.email);
    const row = page.getByRole('row').filter({ hasText: member.email });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('App', { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/users-two-factor-en-1440.png` });
    await row
      .getByRole('menuitem', { name: `Reset the second factors of ${member.email}` })
      .or(row.getByRole('button', { name: `Reset the second factors of ${member.email}` }))
      .click();
    const dialog = page.getByRole('dialog', { name: 'Reset two-factor' });
    await expect(dialog.getByText(/every session of theirs ends at once/)).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/users-two-factor-reset-dialog-en.png` });
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await expect(
      page.getByText(`The second factors of ${member.email} were reset and their sessions ended.`),
    ).toBeVisible();
    await expect(row.getByText('None', { exact: true }).last()).toBeVisible();
    // The user's old session ended with the reset.
    expect((await request.get('/api/user/two-factor', { headers })).status()).toBe(401);

    // The column in Arabic and dark, and at a phone's width.
    await look(page, 'ar', 'dark', '/#/users');
    await page.setViewportSize({ width: 390, height: 844 });
    // The reload cleared the search; with the whole suite's users the row may lie past the rendered rows.
    await page.getByLabel('البحث عن المستخدمين').fill(member.email);
    // There the list is one summary column beside the actions: the second factors are a line of it.
    const narrowRow = page.getByRole('row').filter({ hasText: member.email });
    await expect(narrowRow.getByLabel('التحقق الثنائي')).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/users-two-factor-ar-dark-390.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SCREENS}/users-two-factor-ar-dark-1440.png` });
    await look(page, 'en', 'light', '/#/users');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Search users').fill(member.email);
    await expect(
      page.getByRole('row').filter({ hasText: member.email }).getByLabel('2FA', { exact: true }),
    ).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/users-two-factor-en-light-390.png` });
  });
});

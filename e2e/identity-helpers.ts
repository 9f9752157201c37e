import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ACCOUNTS, mainNav } from './fixtures.js';

/** A name no earlier run used, for roles, groups, keys and users made by a test. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1000).toString(36)}`;
}

/** The token the console stored for the signed-in user (localStorage 'token'). */
export async function storedToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token, 'a signed-in console keeps its token').toBeTruthy();
  return token ?? '';
}

/** Calls the API directly with a token, as a script or a curious user would. */
export async function callApi(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
) {
  return request.fetch(path, { method, headers: { 'authentication-token': token }, data });
}

/** Signs the administrator in through the API and answers the token. */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/login?include_auth_token', { data: ACCOUNTS.admin });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { response: { user: { authentication_token: string } } };
  return body.response.user.authentication_token;
}

/** Password of the users the tests create. */
export const TEST_PASSWORD = 'e2e-test-user-password';

/** Creates a user holding only the role user, through the API as administrator; answers the account. */
export async function createUser(request: APIRequestContext, prefix: string) {
  const account = { email: `${unique(prefix)}@e2e.gatehouse.test`, password: TEST_PASSWORD };
  const res = await callApi(request, await adminToken(request), 'POST', '/api/user', account);
  expect(res.status()).toBe(201);
  return account;
}

/** Signs out through the console's sign-out route. */
export async function signOutOfConsole(page: Page): Promise<void> {
  await page.goto('/#/signout');
  await expect(page).toHaveURL(/#\/signin$/);
}

/** The sidebar entry names, without the counts beside them. */
export async function navEntries(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const link of await mainNav(page).getByRole('link').all()) {
    const label = (await link.getAttribute('aria-label')) ?? (await link.innerText());
    names.push(label.split('\n')[0]?.trim() ?? '');
  }
  return names;
}

/** The message on screen in the snackbar, its text exactly as shown (spaces kept). */
export function snackbar(page: Page) {
  return page.locator('.MuiSnackbar-root .MuiAlert-message');
}

/** Picks options of an autocomplete: types each text and clicks the first option showing it. */
export async function pick(page: Page, field: ReturnType<Page['getByLabel']>, texts: readonly string[]) {
  for (const text of texts) {
    await field.click();
    await field.fill(text);
    // By the option's text and its element, not its accessible role: the list lives in a portal
    // beside the open dialog, and while it redraws the role lookup was seen to find nothing.
    await page.locator('[role="listbox"] [role="option"]', { hasText: text }).first().click();
  }
  // Escape closes a list left open; with none open it would close the dialog instead.
  if (await page.getByRole('listbox').isVisible()) await field.press('Escape');
}

/**
 * Chooses `option` in a select field's menu (MUI's Select): opens it, clicks the option, and waits
 * for the menu to close. A click while the menu is still growing open was seen lost once in a CI run
 * (the option clicked, the menu left open, nothing chosen), so a menu still open is clicked again.
 */
export async function choose(page: Page, field: ReturnType<Page['getByLabel']>, option: string) {
  const item = page.getByRole('option', { name: option, exact: true });
  await expect(async () => {
    if (!(await item.isVisible())) await field.click();
    await item.click({ timeout: 5_000 });
    await expect(page.getByRole('listbox')).toBeHidden({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** The code an authenticator app shows for this secret, `steps` periods from now. */
export function codeFor(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/**
 * A virtual platform authenticator in Chromium for this page (CDP WebAuthn), verifying the user and
 * present without a prompt; answers a function counting the signatures its passkeys made.
 */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.reduce((n, c) => n + c.signCount, 0);
}

/** Adds a passkey named Laptop on My account of the console at `origin`, and saves its recovery codes. */
export async function addPasskeyOnAccount(page: Page, origin: string) {
  await page.goto(`${origin}/#/account`);
  await page.getByLabel('Name of the new passkey').fill('Laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('Laptop', { exact: true })).toBeVisible();
}

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi, snackbar, storedToken } from '../identity-helpers.js';

const MINT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/dist/cli/mint-license.js');

/** A licence signed with the development key (the e2e server accepts it: GATEHOUSE_DEV_LICENSES). */
function mintLicense(customer: string, days: number): string {
  return execFileSync('node', [MINT, '--customer', customer, '--days', String(days), '--max-agents', '40'], {
    encoding: 'utf8',
  }).trim();
}

/** A self-signed certificate for localhost made with the openssl command, and its key. */
function makeCertificate(name: string, days: number): { dir: string; cert: string; key: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-e2e-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-days',
      String(days),
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { cwd: dir, stdio: 'ignore' },
  );
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  return { dir, cert: read('cert.pem'), key: read('key.pem') };
}

/** The security settings as the API answers them. */
async function security(request: APIRequestContext) {
  const res = await callApi(request, await adminToken(request), 'GET', '/api/security');
  return (await res.json()) as {
    api_limit_single_use: boolean;
    api_limit_endpoints: { method: string; path: string }[];
  };
}

/** Saves security settings through the API with a token fresh from signing in. */
async function saveSecurity(request: APIRequestContext, body: Record<string, unknown>) {
  const res = await callApi(request, await adminToken(request), 'POST', '/api/security', body);
  expect(res.status(), await res.text()).toBe(200);
}

async function desiredAgentVersion(request: APIRequestContext): Promise<string | null> {
  const res = await callApi(request, await adminToken(request), 'GET', '/api/versions');
  return ((await res.json()) as { desired_agent_version: string | null }).desired_agent_version;
}

async function signinBanner(request: APIRequestContext): Promise<string> {
  const res = await request.get('/api/settings/public');
  return ((await res.json()) as { signin_banner: string }).signin_banner;
}

/** A licence and a certificate far from expiry, so no notice covers what a later test reads. */
async function quietExpiries(request: APIRequestContext) {
  const token = await adminToken(request);
  const license = await callApi(request, token, 'POST', '/api/license', { license: mintLicense('Gatehouse e2e', 400) });
  expect(license.status()).toBe(200);
  const { cert, key } = makeCertificate('console.e2e.test', 400);
  const tls = await callApi(request, token, 'POST', '/api/ingress-tls', { certificate: cert, private_key: key });
  expect(tls.status()).toBe(200);
}

function tab(page: Page, name: string) {
  return page.getByRole('tab', { name, exact: true });
}

test.describe('settings', () => {
  // Later specs share this server: leave no notice, limit or banner behind.
  test.afterAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    await saveSecurity(request, { api_limit_single_use: false, api_limit_freshness: false, api_limit_endpoints: [] });
    await callApi(request, await adminToken(request), 'POST', '/api/settings', { signin_banner: '' });
    await quietExpiries(request);
    await request.dispose();
  });

  test('an administrator installs a licence, sees its details and, 5 s after the data arrives, its notice', async ({
    page,
  }) => {
    await signIn(page, ACCOUNTS.admin, '/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(tab(page, 'License')).toHaveAttribute('aria-selected', 'true');
    const section = page.getByRole('region', { name: 'License' });
    await expect(section.getByText('Missing License')).toBeVisible();

    // A forged or malformed licence is refused with the server's reason.
    const field = section.getByLabel('License text');
    await field.fill('this-is-not-a-licence');
    await section.getByRole('button', { name: 'Install license' }).click();
    await expect(section.getByRole('alert')).toContainText('The license was not installed:');
    await expect(section.getByText('Missing License')).toBeVisible();

    await field.fill(mintLicense('Demo', 10));
    await section.getByRole('button', { name: 'Install license' }).click();
    await expect(snackbar(page)).toHaveText('License installed.');
    await expect(field).toHaveValue('');
    const facts = section.locator('dl');
    await expect(facts).toContainText('Demo');
    await expect(facts).toContainText('Valid');
    await expect(facts).toContainText('Development license');
    await expect(facts).toContainText(/\d+ of 40 enrolled/);
    await expect(facts).not.toContainText('Missing License');
    // Minted for 10 days a moment ago: 9 whole days left, a warning (4 to 30 days).
    await expect(section.locator('.MuiAlert-colorWarning')).toHaveText('License expires in 9 days');

    // The notice: 5 s after the licence data arrives, as a warning snackbar.
    await expect(snackbar(page)).toHaveText('License expires in 9 days', { timeout: 15_000 });
    await expect(page.locator('.MuiSnackbar-root .MuiAlert-colorWarning')).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/settings-license-en-dark.png` });

    // After a reload it comes again once the licence is read, on any screen.
    await page.goto('/#/users');
    await page.reload();
    await expect(snackbar(page)).toHaveText('License expires in 9 days', { timeout: 15_000 });
  });

  test('an administrator uploads a certificate and key and sees its issuer, names and days left', async ({ page }) => {
    // A licence far from expiry first, so its notice does not cover this test's messages.
    const license = mintLicense('Gatehouse e2e', 400);
    expect(
      (await callApi(page.request, await adminToken(page.request), 'POST', '/api/license', { license })).ok(),
    ).toBe(true);
    const good = makeCertificate('console.e2e.test', 20);
    const other = makeCertificate('other.e2e.test', 20);
    await signIn(page, ACCOUNTS.admin, '/settings?section=certificate');
    const section = page.getByRole('region', { name: 'Ingress certificate' });
    await expect(section.getByRole('heading', { name: 'Upload a certificate' })).toBeVisible();

    // Text that is not PEM is caught before sending.
    await section.getByLabel('Certificate chain (PEM)').fill('hello');
    await section.getByRole('button', { name: 'Upload certificate' }).click();
    await expect(section.getByText('This is not a PEM certificate')).toBeVisible();

    // A key that does not belong to the certificate: the server says so.
    const chooser = page.waitForEvent('filechooser');
    await section.getByRole('button', { name: 'Choose a certificate chain file' }).click();
    await (await chooser).setFiles(path.join(good.dir, 'cert.pem'));
    await expect(section.getByLabel('Certificate chain (PEM)')).toHaveValue(good.cert);
    await section.getByLabel('Private key (PEM)').fill(other.key);
    await section.getByRole('button', { name: 'Upload certificate' }).click();
    await expect(section.getByRole('alert')).toContainText('The private key does not belong to the certificate');

    await section.getByLabel('Private key (PEM)').fill(good.key);
    await section.getByRole('button', { name: 'Upload certificate' }).click();
    await expect(snackbar(page)).toHaveText('Certificate installed.');
    const facts = section.locator('dl');
    await expect(facts).toContainText('CN=console.e2e.test');
    await expect(facts.getByText('DNS:localhost')).toBeVisible();
    await expect(facts.getByText('IP Address:127.0.0.1')).toBeVisible();
    await expect(section.locator('.MuiAlert-colorWarning')).toHaveText('Ingress certificate expires in 19 days');
    // The private key never comes back.
    await expect(section.getByLabel('Private key (PEM)')).toHaveValue('');
    const described = await callApi(page.request, await storedToken(page), 'GET', '/api/ingress-tls');
    expect(await described.text()).not.toContain('PRIVATE KEY');
    await expect(snackbar(page)).toHaveText('Ingress certificate expires in 19 days', { timeout: 30_000 });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/settings-certificate-en-dark.png` });
    await quietExpiries(page.request);
  });

  test('an endpoint listed for single-use asks for authorization before the call runs; the one-shot token works once', async ({
    page,
  }) => {
    await signIn(page, ACCOUNTS.admin, '/settings?section=security');
    const section = page.getByRole('region', { name: 'Security settings' });
    await section.getByLabel('Per-request authorization').check();

    // A path that is not a regular expression is caught in the browser.
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    await section.getByLabel('Path of endpoint 1').fill('([');
    await expect(section.getByText(/^Not a valid regular expression:/)).toBeVisible();
    await section.getByLabel('Path of endpoint 1').fill('^/api/version$');
    await expect(section.getByText(/^Not a valid regular expression:/)).toHaveCount(0);
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(snackbar(page)).toHaveText('Configuration saved.');
    expect(await security(page.request)).toMatchObject({
      api_limit_single_use: true,
      api_limit_endpoints: [{ method: 'POST', path: '^/api/version$' }],
    });
    await expect(
      page.getByRole('img', { name: 'Security configuration has per-request authentication enabled' }),
    ).toBeVisible();

    // The listed call: the dialog comes first and nothing reaches the server until it is answered.
    const before = await desiredAgentVersion(page.request);
    const sent: { token: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/version')
        sent.push({ token: request.headers()['authentication-token'] });
    });
    await tab(page, 'Versions').click();
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByLabel('Desired agent version tag').fill('e2e-2.0.1');
    await versions.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Authorize' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('User Email')).toHaveValue(ACCOUNTS.admin.email);
    await expect(dialog.getByRole('button', { name: 'Authorize' })).toBeDisabled();
    expect(sent).toEqual([]);
    expect(await desiredAgentVersion(page.request)).toBe(before);
    await page.screenshot({ path: `${SCREENS}/settings-authorize-en-dark.png` });

    await dialog.getByLabel('User Password').fill(ACCOUNTS.admin.password);
    await dialog.getByLabel('User Password').press('Enter');
    await expect(dialog).toBeHidden();
    await expect(snackbar(page)).toHaveText('Configuration saved.');
    expect(await desiredAgentVersion(page.request)).toBe('e2e-2.0.1');
    // Sent once, with a one-shot token rather than the session's; nothing of it is kept.
    expect(sent).toHaveLength(1);
    const oneShot = sent[0]?.token ?? '';
    expect(oneShot).not.toBe(await storedToken(page));
    expect(await page.evaluate(() => localStorage.getItem('oneshotToken'))).toBeNull();
    const replay = await callApi(page.request, oneShot, 'POST', '/api/version', { agent_version: 'e2e-replayed' });
    expect(replay.status()).toBe(401);
    expect(await desiredAgentVersion(page.request)).toBe('e2e-2.0.1');

    // Listed behind the console's back: the server refuses, the console says 'Authorization needed',
    // asks, and sends the call again. Cancelling leaves it undone.
    await saveSecurity(page.request, {
      api_limit_endpoints: [
        { method: 'POST', path: '^/api/version$' },
        { method: 'POST', path: '^/api/settings$' },
      ],
    });
    await tab(page, 'General').click();
    const general = page.getByRole('region', { name: 'General settings' });
    await general.getByLabel('Sign-in banner').fill('Authorized use only.');
    await general.getByRole('button', { name: 'Save' }).click();
    await expect(snackbar(page)).toHaveText('Authorization needed');
    await expect(dialog).toContainText('Authorization needed');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(general.getByRole('alert')).toHaveText('Authorization cancelled: the action was not carried out.');
    expect(await signinBanner(page.request)).toBe('');

    await general.getByRole('button', { name: 'Save' }).click();
    await dialog.getByLabel('User Password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Authorize' }).click();
    await expect(dialog.getByText('The password is not correct.')).toBeVisible();
    await dialog.getByLabel('User Password').fill(ACCOUNTS.admin.password);
    await dialog.getByRole('button', { name: 'Authorize' }).click();
    await expect(snackbar(page)).toHaveText('Configuration saved.');
    expect(await signinBanner(page.request)).toBe('Authorized use only.');
  });
});

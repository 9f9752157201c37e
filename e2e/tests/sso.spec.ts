import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
// The SAML identity provider the server's own tests use: it signs real assertions (xml-crypto).
import { TestSamlIdp } from '../../apps/server/src/test/saml-idp.js';
// The directory the server's own tests use: Debian's slapd on loopback.
import { startSlapd } from '../../apps/server/src/test/slapd.js';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import {
  addPasskeyOnAccount,
  addVirtualAuthenticator,
  adminToken,
  callApi,
  codeFor,
  signOutOfConsole,
  snackbar,
  storedToken,
  unique,
} from '../identity-helpers.js';
import { startProvider } from '../oidc-provider.js';
import { saveSettings } from './users-api.js';

const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? '18480'}`;

/** Saves the sign-in configuration with a token fresh from signing in (the call needs one). */
async function saveSso(request: APIRequestContext, body: Record<string, unknown>) {
  const res = await callApi(request, await adminToken(request), 'POST', '/sso/config', body);
  expect(res.status(), await res.text()).toBe(200);
}

async function saveSecurity(request: APIRequestContext, body: Record<string, unknown>) {
  const res = await callApi(request, await adminToken(request), 'POST', '/api/security', body);
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs in at the provider's own pages: any login name is an account there; then consents. */
async function atProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  const consent = page.getByRole('button', { name: 'Continue' });
  await consent.click();
}

/**
 * Limits POST /api/version to single use, and signs `login` in through the provider on the console at
 * `origin` (the base URL when empty); answers the session token.
 */
async function signInLimitingVersions(page: Page, request: APIRequestContext, login: string, origin = '') {
  await saveSecurity(request, {
    api_limit_single_use: true,
    api_limit_endpoints: [{ method: 'POST', path: '^/api/version$' }],
  });
  await page.goto(`${origin}/#/signin`);
  await page.getByRole('button', { name: /Sign in with single sign-on/ }).click();
  await atProvider(page, login);
  await expect(mainNav(page)).toBeVisible();
  return storedToken(page);
}

/** The labels of Settings → Versions and of the Authorize dialog's passkey button, in English and Arabic. */
const VERSIONS = {
  en: { region: 'Versions', field: 'Desired agent version tag', save: 'Save', passkey: 'Use your passkey' },
  ar: { region: 'الإصدارات', field: 'وسم إصدار الوكيل المطلوب', save: 'حفظ', passkey: 'استخدم مفتاح المرور' },
};

/**
 * Saves a desired agent version tag (listed as single-use) on the console at `origin`: the popup goes
 * through the provider, which remembers the user, and closes by itself; answers the dialog that follows.
 */
async function saveVersionInPopup(page: Page, tag: string, labels = VERSIONS.en, origin = '') {
  await page.goto(`${origin}/#/settings?section=versions`);
  const versions = page.getByRole('region', { name: labels.region });
  await versions.getByLabel(labels.field).fill(tag);
  const popupOpened = page.waitForEvent('popup');
  await versions.getByRole('button', { name: labels.save }).click();
  await (await popupOpened).waitForEvent('close', { timeout: 30_000 });
  return page.getByRole('dialog');
}

/** The session tokens that POST /api/version calls of the page send, as they are sent. */
function versionCalls(page: Page) {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/version')
      sent.push(r.headers()['authentication-token'] ?? '');
  });
  return sent;
}

async function desiredAgentVersion(request: APIRequestContext) {
  const res = await callApi(request, await adminToken(request), 'GET', '/api/versions');
  return ((await res.json()) as { desired_agent_version: string }).desired_agent_version;
}

// WebAuthn needs a host name (an IP address is no relying party): passkey tests use the console on localhost.
const LOCAL = `http://localhost:${new URL(BASE).port}`;

test.describe('single sign-on', () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  const email = `${unique('olivia')}@oidc.e2e.gatehouse.test`;

  test.beforeAll(async () => {
    provider = await startProvider([`${BASE}/sso/oidc/callback`, `${LOCAL}/sso/oidc/callback`], {
      // A group merely named admin gives nothing; gh-admins is mapped to the admin role in Settings.
      olivia: { email, name: 'Olivia OIDC', groups: ['auditor', 'admin', 'gh-admins'] },
      other: { email: `${unique('other')}@oidc.e2e.gatehouse.test`, name: 'Other', groups: [] },
      tess: { email: `${unique('tess')}@oidc.e2e.gatehouse.test`, name: 'Tess', groups: ['gh-admins'] },
      pat: { email: `${unique('pat')}@oidc.e2e.gatehouse.test`, name: 'Pat Passkey', groups: ['gh-admins'] },
    });
  });

  // Later specs share this server: back to passwords, no limits.
  test.afterAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    await saveSso(request, { auth_type: 1 });
    await saveSecurity(request, { api_limit_single_use: false, api_limit_endpoints: [] });
    await request.dispose();
    await provider?.stop();
  });

  test('signs in through an OpenID provider, whose groups give the roles; administrators keep their password', async ({
    page,
    request,
  }) => {
    // The administrator sets the provider up in Settings → Single sign-on, tests it and switches to it.
    await signIn(page, ACCOUNTS.admin, '/settings?section=sso');
    const section = page.getByRole('region', { name: 'Single sign-on' });
    await section.getByRole('radio', { name: /OpenID Connect/ }).check();
    await expect(section.getByText(/Saving switches sign-in from Password only to OpenID Connect/)).toBeVisible();
    await expect(section.getByRole('textbox', { name: 'Redirect URI' })).toHaveValue(`${BASE}/sso/oidc/callback`);
    await section.getByLabel('Well-known URL').fill(provider.wellKnownUrl);
    await section.getByLabel('Client ID').fill(provider.client_id);
    await section.getByLabel('Client secret').fill(provider.client_secret);
    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect(section.getByText(`Found the OpenID provider ${provider.issuer}.`)).toBeVisible();
    await section.getByLabel('Groups that give the admin role').fill('gh-admins');
    await page.screenshot({ path: `${SCREENS}/settings-sso-oidc-en-dark.png`, fullPage: true });
    await section.getByRole('button', { name: 'Save' }).click();
    const confirm = page.getByRole('dialog', { name: 'Switch sign-in to OpenID Connect?' });
    await confirm.getByRole('button', { name: 'Switch and save' }).click();
    await expect(snackbar(page)).toHaveText('Configuration saved.');
    await expect(section.getByRole('button', { name: 'Replace Client secret' })).toBeVisible();
    await signOutOfConsole(page);

    await page.goto('/#/signin');
    const button = page.getByRole('button', { name: /Sign in with single sign-on \(OpenID Connect\)/ });
    await expect(button).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/sso-signin-en-dark.png` });
    await button.click();
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    await atProvider(page, 'olivia');
    await expect(mainNav(page)).toBeVisible();
    const token = await storedToken(page);
    const me = (await (await callApi(request, token, 'GET', '/api/user/me')).json()) as {
      user: { email: string; roles: { name: string }[] };
    };
    expect(me.user.email).toBe(email);
    expect(me.user.roles.map((r) => r.name).sort()).toEqual(['admin', 'auditor', 'user']);

    // Break-glass: an administrator signs in with the password behind the discreet link.
    const admin = await page.context().browser()?.newPage();
    if (!admin) throw new Error('no second page');
    await admin.goto('/#/signin');
    await admin.getByRole('link', { name: 'Administrator? Sign in with a password' }).click();
    await admin.getByLabel(/email/i).fill(ACCOUNTS.admin.email);
    await admin.getByLabel(/^password/i).fill(ACCOUNTS.admin.password);
    await admin.getByRole('button', { name: /^sign in$/i }).click();
    await expect(mainNav(admin)).toBeVisible();
    await admin.close();
  });

  test('re-authorizes an OpenID user in a 500×500 popup before a listed call', async ({ page, request }) => {
    const session = await signInLimitingVersions(page, request, 'olivia');

    await page.goto('/#/settings?section=versions');
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByLabel('Desired agent version tag').fill('sso-2.0.2');
    const sent = versionCalls(page);
    // The console opens the popup with its size (Playwright gives every page the context's viewport).
    await page.evaluate(() => {
      const open = window.open.bind(window);
      const opened: string[] = [];
      (window as unknown as { opened: string[] }).opened = opened;
      window.open = (url?: string | URL, target?: string, features?: string) => {
        opened.push(features ?? '');
        return open(url, target, features);
      };
    });
    const popupOpened = page.waitForEvent('popup');
    await versions.getByRole('button', { name: 'Save' }).click();
    const popup = await popupOpened;
    const features = await page.evaluate(() => (window as unknown as { opened: string[] }).opened);
    expect(features[0]).toMatch(/width=500/);
    expect(features[0]).toMatch(/height=500/);
    // The provider remembers Olivia and her consent: the popup goes through and closes by itself.
    await popup.waitForEvent('close', { timeout: 30_000 });
    await expect(snackbar(page)).toHaveText('Configuration saved.');
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toBe(session);
    expect(await desiredAgentVersion(request)).toBe('sso-2.0.2');
    await saveSecurity(request, { api_limit_single_use: false, api_limit_endpoints: [] });
  });

  test('an OpenID user with an authenticator app re-authorizes: the popup, then the code in the Authorize dialog', async ({
    page,
    request,
  }) => {
    const session = await signInLimitingVersions(page, request, 'tess');
    // Tess sets up an authenticator app (the code is computed here, as her phone would).
    const started = await callApi(request, session, 'POST', '/api/user/two-factor/totp');
    expect(started.status(), await started.text()).toBe(200);
    const { secret } = (await started.json()) as { secret: string };
    const confirmed = await callApi(request, session, 'POST', '/api/user/two-factor/totp/confirm', {
      code: codeFor(secret),
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    const recovery = ((await confirmed.json()) as { recovery_codes: string[] }).recovery_codes;

    const sent = versionCalls(page);
    const dialog = await saveVersionInPopup(page, 'sso-2fa-1');
    // Tess has no passkey: the dialog offers the code only, and says so.
    await expect(
      dialog.getByText(
        'You signed in at your identity provider. To finish, enter the code from your authenticator app or a recovery code.',
      ),
    ).toBeVisible();
    await expect(dialog.getByRole('button', { name: /passkey/ })).toHaveCount(0);
    await expect(dialog.getByLabel('User Password')).toHaveCount(0);
    await page.screenshot({ path: `${SCREENS}/sso-second-factor-en-dark.png` });
    // A wrong code is refused in the dialog, and the call waits.
    const right = codeFor(secret, 1);
    await dialog.getByLabel('Code from your app').fill(String((Number(right) + 500_000) % 1_000_000).padStart(6, '0'));
    await dialog.getByRole('button', { name: 'Authorize' }).click();
    await expect(dialog.getByText(/That code is not right/)).toBeVisible();
    expect(sent).toHaveLength(0);
    await dialog.getByLabel('Code from your app').fill(right);
    await dialog.getByRole('button', { name: 'Authorize' }).click();
    await expect(snackbar(page)).toHaveText('Configuration saved.');
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toBe(session);
    expect(await desiredAgentVersion(request)).toBe('sso-2fa-1');

    // Arabic, light, on a phone: the same dialog, right to left.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.goto('/#/settings?section=versions&theme_mode=light');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const arabic = await saveVersionInPopup(page, 'sso-2fa-2', VERSIONS.ar);
    await expect(
      arabic.getByText('سجّلت الدخول لدى مزوّد الهوية. للإكمال، أدخل الرمز من تطبيق المصادقة أو رمز استرداد.'),
    ).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/sso-second-factor-ar-light-phone.png` });
    await arabic.getByLabel('الرمز من تطبيقك').fill(recovery[0] ?? '');
    await arabic.getByRole('button', { name: 'تفويض' }).click();
    await expect(arabic).toHaveCount(0);
    expect(sent).toHaveLength(2);
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await saveSecurity(request, { api_limit_single_use: false, api_limit_endpoints: [] });
  });

  test('an OpenID user with a passkey re-authorizes: the popup, then the passkey in the Authorize dialog', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    // The console's public URL on localhost: the provider sends the browser back there, and passkeys are for it.
    await saveSettings(request, { public_url: LOCAL });
    try {
      const signatures = await addVirtualAuthenticator(page);
      const session = await signInLimitingVersions(page, request, 'pat', LOCAL);
      // Pat adds a passkey on My account: her only second factor (with its recovery codes).
      await addPasskeyOnAccount(page, LOCAL);

      const sent = versionCalls(page);
      const texts = {
        en: 'You signed in at your identity provider. To finish, use your passkey, or enter a recovery code.',
        ar: 'سجّلت الدخول لدى مزوّد الهوية. للإكمال، استخدم مفتاح المرور، أو أدخل رمز استرداد.',
      };
      // Each language and theme, each on a laptop and a phone: the popup, then the passkey in the dialog.
      const looks = [
        ['en', 'dark'],
        ['en', 'light'],
        ['ar', 'dark'],
        ['ar', 'light'],
      ] as const;
      for (const [i, [lang, mode]] of looks.entries()) {
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.evaluate((locale) => localStorage.setItem('locale', locale), lang);
        await page.goto(`${LOCAL}/#/settings?section=versions&theme_mode=${mode}`);
        await page.reload();
        await expect(page.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
        const tag = `sso-passkey-${lang}-${mode}`;
        const dialog = await saveVersionInPopup(page, tag, VERSIONS[lang], LOCAL);
        await expect(dialog.getByText(texts[lang])).toBeVisible();
        await expect(dialog.getByRole('textbox')).toHaveCount(2); // the email, and a recovery code
        await expect(dialog.getByLabel(/User Password|كلمة مرور المستخدم/)).toHaveCount(0);
        // Once the dialog has faded in, or the page shows through it.
        await page.evaluate(() =>
          Promise.all(document.getAnimations().flatMap((a) => (a instanceof CSSTransition ? [a.finished] : []))),
        );
        await page.screenshot({ path: `${SCREENS}/sso-passkey-step-${lang}-${mode}.png` });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: `${SCREENS}/sso-passkey-step-${lang}-${mode}-phone.png` });
        const signed = await signatures();
        await dialog.getByRole('button', { name: VERSIONS[lang].passkey }).click();
        await expect(dialog).toHaveCount(0);
        if (lang === 'en') await expect(snackbar(page)).toHaveText('Configuration saved.');
        // The virtual authenticator signed the server's challenge, and the call went once, re-authorized.
        expect(await signatures()).toBeGreaterThan(signed);
        expect(sent).toHaveLength(i + 1);
        expect(sent[i]).not.toBe(session);
        expect(await desiredAgentVersion(request)).toBe(tag);
      }
    } finally {
      await page.evaluate(() => localStorage.setItem('locale', 'en'));
      await saveSettings(request, { public_url: '' });
      await saveSecurity(request, { api_limit_single_use: false, api_limit_endpoints: [] });
    }
  });

  test('signs in through a SAML identity provider, and shows why a forged assertion is refused', async ({
    page,
    request,
  }) => {
    const idp = await TestSamlIdp.create();
    const IDP_URL = idp.ssoUrl.replace('https://', 'http://');
    await saveSso(request, {
      auth_type: 2,
      saml_config: {
        // Plain http here: Chrome warns before a secure page posts a form to an insecure address.
        idp: { entityId: idp.entityId, singleSignOnService: { url: IDP_URL }, x509cert: idp.cert },
      },
    });
    const samlEmail = `${unique('sam')}@saml.e2e.gatehouse.test`;
    let tamper = false;
    // The browser really goes to the IdP's address; the test plays the IdP there: it reads the
    // AuthnRequest and answers the page an IdP answers, a form that posts the signed response.
    await page.route(`${IDP_URL}**`, async (route) => {
      const received = idp.readRequest(route.request().url().replace('http://', 'https://'));
      const response = idp.respond({
        inResponseTo: received.id,
        nameId: samlEmail,
        attributes: { displayName: ['Sam SAML'], groups: ['auditor'] },
        audience: received.issuer,
        recipient: received.acsUrl,
        ...(tamper ? { tamper: (xml: string) => xml.replace('Sam SAML', 'Mallory') } : {}),
      });
      await route.fulfill({
        contentType: 'text/html',
        body:
          `<form method="post" action="${received.acsUrl}"><input type="hidden" name="SAMLResponse" value="${response}">` +
          `<input type="hidden" name="RelayState" value="${received.relayState}"></form>` +
          '<script>document.forms[0].submit()</script>',
      });
    });

    tamper = true;
    await page.goto('/#/signin');
    await page.getByRole('button', { name: /Sign in with single sign-on \(SAML\)/ }).click();
    await expect(page).toHaveURL(/#\/sso\?error=/);
    await expect(page.getByText(/signature is not valid/)).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/sso-refused-en-dark.png` });

    tamper = false;
    await page.goto('/#/signin');
    await page.getByRole('button', { name: /Sign in with single sign-on \(SAML\)/ }).click();
    await expect(mainNav(page)).toBeVisible();
    const me = (await (await callApi(request, await storedToken(page), 'GET', '/api/user/me')).json()) as {
      user: { email: string; name: string; roles: { name: string }[] };
    };
    expect(me.user).toMatchObject({ email: samlEmail, name: 'Sam SAML' });
    expect(me.user.roles.map((r) => r.name).sort()).toEqual(['auditor', 'user']);
  });

  test('signs in with a directory (LDAP) account whose directory group gives the role', async ({ page, request }) => {
    const slapd = await startSlapd();
    try {
      const mail = `${unique('lena')}@ldap.e2e.gatehouse.test`;
      await slapd.add(
        [
          `dn: uid=lena,ou=people,${slapd.baseDn}`,
          'objectClass: inetOrgPerson',
          'uid: lena',
          'cn: Lena Directory',
          'sn: Directory',
          `mail: ${mail}`,
          'userPassword: lena-directory-password',
          '',
          `dn: cn=auditor,ou=groups,${slapd.baseDn}`,
          'objectClass: groupOfNames',
          'cn: auditor',
          `member: uid=lena,ou=people,${slapd.baseDn}`,
          '',
        ].join('\n'),
      );
      await saveSso(request, {
        auth_type: 4,
        ldap_config: {
          ldap_host: slapd.host,
          ldap_bind_user: slapd.adminDn,
          ldap_bind_password: slapd.adminPassword,
          ldap_base_dn: slapd.baseDn,
          ldap_use_ssl: false,
        },
      });
      await page.goto('/#/signin');
      const form = page.getByRole('form', { name: 'Directory sign-in form' });
      await form.getByLabel(/email/i).fill(mail);
      await form.getByLabel(/^password/i).fill('not-her-password');
      await form.getByRole('button', { name: 'Sign in with directory' }).click();
      await expect(page.getByText('Invalid email or password.')).toBeVisible();
      await form.getByLabel(/^password/i).fill('lena-directory-password');
      await form.getByRole('button', { name: 'Sign in with directory' }).click();
      await expect(mainNav(page)).toBeVisible();
      const me = (await (await callApi(request, await storedToken(page), 'GET', '/api/user/me')).json()) as {
        user: { email: string; name: string; roles: { name: string }[] };
      };
      expect(me.user).toMatchObject({ email: mail, name: 'Lena Directory' });
      expect(me.user.roles.map((r) => r.name).sort()).toEqual(['auditor', 'user']);
    } finally {
      slapd.stop();
    }
  });
});

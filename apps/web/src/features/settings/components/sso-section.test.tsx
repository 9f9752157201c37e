// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FakeAnswer, SeenRequest } from '../../../components/testing/render-with-providers';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { signIn, signOut } from '../../../lib/session';
import type { AuthConfig } from '../api/sso-config';
import { SsoSection } from './sso-section';

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** Directory sign-in is on, with a stored bind password; OIDC is prepared without a secret; SAML has a key. */
const CONFIG: AuthConfig = {
  auth_type: 4,
  admin_groups: ['gatehouse-admins'],
  ldap_config: {
    ldap_host: 'ldap.example.com:636',
    ldap_bind_user: 'cn=gatehouse,dc=example,dc=com',
    ldap_bind_password_set: true,
    ldap_base_dn: 'ou=people,dc=example,dc=com',
    ldap_use_ssl: true,
    ldap_user_object_filter: '(&(objectClass=inetOrgPerson)(mail={email}))',
    ldap_group_object_filter: '(&(objectClass=groupOfNames)(member={dn}))',
  },
  oidc_config: {
    client_id: 'gatehouse-console',
    client_secret_set: false,
    scope: 'profile email openid',
    well_known_url: 'https://idp.example.com/.well-known/openid-configuration',
  },
  saml_config: {
    strict: true,
    debug: false,
    sp: {
      entityId: 'https://gh.example.com/saml/metadata',
      assertionConsumerService: { url: 'https://gh.example.com/saml/acs', binding: POST },
      singleLogoutService: { url: '', binding: REDIRECT },
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      x509cert: '',
      privateKey_set: true,
    },
    idp: {
      entityId: '',
      singleSignOnService: { url: '', binding: REDIRECT },
      singleLogoutService: { url: '', binding: REDIRECT },
      x509cert: '',
    },
    security: {
      authnRequestsSigned: false,
      wantAssertionsSigned: true,
      wantMessagesSigned: false,
      rejectDeprecatedAlgorithm: true,
      signatureAlgorithm: 'sha256',
    },
    contactPerson: { technical: { givenName: '', emailAddress: '' }, support: { givenName: '', emailAddress: '' } },
    organization: { name: '', displayname: '', url: '' },
  },
  callback_urls: {
    oidc_redirect_uri: 'https://gh.example.com/sso/oidc/callback',
    saml_acs_url: 'https://gh.example.com/saml/acs',
    saml_metadata_url: 'https://gh.example.com/saml/metadata',
  },
};

function renderSection(answers: Record<string, FakeAnswer> = {}): SeenRequest[] {
  const seen = fakeServer({ 'GET sso/config': [200, CONFIG], ...answers });
  renderWithProviders(<SsoSection />);
  return seen;
}

const posts = (seen: SeenRequest[], url: string) =>
  seen.filter((request) => request.method === 'POST' && request.url === url);
const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label, { selector: 'input, textarea' });
const type = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
const openTab = (name: RegExp) => fireEvent.click(screen.getByRole('tab', { name }));

function signInAs(role: string) {
  signIn('token', {
    email: 'a@example.test',
    username: 'a@example.test',
    name: null,
    roles: [{ name: role, permissions: ['manage-sso-config'] }],
    effectivePermissions: ['manage-sso-config'],
    authType: 'jwt_auth',
  });
}

beforeEach(() => signInAs('admin'));
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('SsoSection', () => {
  it('shows the stored configuration, with stored secrets as Stored and never their value', async () => {
    renderSection();
    expect((await screen.findByLabelText<HTMLInputElement>(/^Directory host/)).value).toBe('ldap.example.com:636');
    expect(screen.getByRole('radio', { name: /LDAP directory/ })).toHaveProperty('checked', true);
    expect(screen.getByRole('tab', { name: /LDAP directory/, selected: true }).textContent).toContain('Active');
    expect(field(/^Base DN/).value).toBe('ou=people,dc=example,dc=com');
    expect(field(/^Bind password/).value).toBe('Stored');
    expect(field(/^Bind password/).readOnly).toBe(true);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);

    openTab(/OpenID Connect/);
    expect(field(/^Well-known URL/).value).toBe(CONFIG.oidc_config.well_known_url);
    expect(field(/^Redirect URI/).value).toBe('https://gh.example.com/sso/oidc/callback');
    expect(field(/^Client secret/).value).toBe('');
    expect(screen.getByText(/^No secret stored\./)).toBeTruthy();

    openTab(/SAML 2\.0/);
    expect(field(/^SP private key/).value).toBe('Stored');
    expect(field(/^Metadata URL/).value).toBe('https://gh.example.com/saml/metadata');
    expect(screen.getByRole('link', { name: 'Open Metadata URL in a new tab' }).getAttribute('href')).toBe(
      'https://gh.example.com/saml/metadata',
    );
  });

  it('sends only the changed fields, the new password only when replaced, and says Configuration saved.', async () => {
    const seen = renderSection({ 'POST sso/config': [200, { message: 'Configuration saved.', config: CONFIG }] });
    await screen.findByLabelText(/^Directory host/);
    type(/^Bind DN/, 'cn=reader,dc=example,dc=com');
    fireEvent.click(screen.getByRole('button', { name: 'Replace Bind password' }));
    type(/^Bind password/, 'n3w-s3cret');
    openTab(/SAML 2\.0/);
    fireEvent.click(screen.getByRole('switch', { name: 'Debug logging' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Configuration saved.')).toBeTruthy();
    expect(posts(seen, 'sso/config').map((request) => request.body)).toEqual([
      {
        ldap_config: { ldap_bind_user: 'cn=reader,dc=example,dc=com', ldap_bind_password: 'n3w-s3cret' },
        saml_config: { debug: true },
      },
    ]);
    // The form starts again from the answer: the new password is not kept on screen.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true));
    openTab(/LDAP directory/);
    expect(field(/^Bind password/).value).toBe('Stored');
  });

  it('discards edits back to the stored values, closing a secret opened with Replace', async () => {
    renderSection();
    await screen.findByLabelText(/^Directory host/);
    type(/^Directory host/, 'other.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Replace Bind password' }));
    type(/^Bind password/, 'typed');
    expect(screen.getByRole('tab', { name: /LDAP directory.*unsaved changes/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(field(/^Directory host/).value).toBe('ldap.example.com:636');
    expect(field(/^Bind password/).value).toBe('Stored');
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });

  it('tests the directory with the values on screen and shows what the server said', async () => {
    const message =
      'Could not bind to ldaps://ldap2.example.com:636 as cn=gatehouse,dc=example,dc=com: Invalid credentials';
    const seen = renderSection({ 'POST sso/config/test-ldap': [200, { ok: false, message }] });
    await screen.findByLabelText(/^Directory host/);
    type(/^Directory host/, 'ldap2.example.com:636');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));

    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Connection failed')).toBeTruthy();
    expect(posts(seen, 'sso/config/test-ldap')[0]?.body).toMatchObject({
      ldap_host: 'ldap2.example.com:636',
      ldap_base_dn: 'ou=people,dc=example,dc=com',
    });
    expect(posts(seen, 'sso/config/test-ldap')[0]?.body).not.toHaveProperty('ldap_bind_password');
  });

  it('tests the OpenID provider and shows that it works', async () => {
    const seen = renderSection({
      'POST sso/config/test-oidc': [200, { ok: true, message: 'Found the OpenID provider https://idp.example.com.' }],
    });
    await screen.findByLabelText(/^Directory host/);
    openTab(/OpenID Connect/);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Found the OpenID provider https://idp.example.com.')).toBeTruthy();
    expect(screen.getByText('Connection works')).toBeTruthy();
    expect(posts(seen, 'sso/config/test-oidc')[0]?.body).toEqual({ well_known_url: CONFIG.oidc_config.well_known_url });
  });

  it('refuses a URL that is not http(s) and a user filter without {email}, before anything is sent', async () => {
    const seen = renderSection({ 'POST sso/config': [200, { message: 'Configuration saved.', config: CONFIG }] });
    await screen.findByLabelText(/^Directory host/);
    type(/^User filter/, '(mail=someone)');
    expect(screen.getByText(/^The filter must contain \{email\}/)).toBeTruthy();
    openTab(/OpenID Connect/);
    type(/^Well-known URL/, 'ftp://idp.example.com/.well-known/openid-configuration');
    expect(screen.getByText('Enter an http:// or https:// address')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Some fields need attention: LDAP directory, OpenID Connect.')).toBeTruthy();
    expect(posts(seen, 'sso/config')).toEqual([]);

    type(/^Well-known URL/, 'https://login.example.com/.well-known/openid-configuration');
    openTab(/LDAP directory/);
    type(/^User filter/, '(mail={email})');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Configuration saved.')).toBeTruthy();
    expect(posts(seen, 'sso/config').map((request) => request.body)).toEqual([
      {
        ldap_config: { ldap_user_object_filter: '(mail={email})' },
        oidc_config: { well_known_url: 'https://login.example.com/.well-known/openid-configuration' },
      },
    ]);
  });

  it('asks before switching the sign-in method, and sends the switch only once confirmed', async () => {
    const switched = { ...CONFIG, auth_type: 3 };
    const seen = renderSection({ 'POST sso/config': [200, { message: 'Configuration saved.', config: switched }] });
    await screen.findByLabelText(/^Directory host/);
    fireEvent.click(screen.getByRole('radio', { name: /OpenID Connect/ }));
    expect(screen.getByRole('tab', { name: /OpenID Connect/, selected: true })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Switch sign-in to OpenID Connect?' });
    expect(within(dialog).getByText(/Administrators can still sign in with their password/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(seen, 'sso/config')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Switch and save' }));
    expect(await screen.findByText('Configuration saved.')).toBeTruthy();
    expect(posts(seen, 'sso/config').map((request) => request.body)).toEqual([{ auth_type: 3 }]);
    await waitFor(() => expect(screen.getByRole('radio', { name: /OpenID Connect/ })).toHaveProperty('checked', true));
  });

  it('requires what the chosen method needs before switching to it', async () => {
    const seen = renderSection();
    await screen.findByLabelText(/^Directory host/);
    fireEvent.click(screen.getByRole('radio', { name: /SAML 2\.0/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getAllByText('Required').length).toBe(3);
    expect(posts(seen, 'sso/config')).toEqual([]);
  });

  it('says why the configuration could not load, and tries again', async () => {
    const seen = fakeServer({ 'GET sso/config': [403, { message: 'You need the permission manage-sso-config.' }] });
    renderWithProviders(<SsoSection />);
    expect(
      await screen.findByText('Could not load this section: You need the permission manage-sso-config.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(seen.filter((request) => request.url === 'sso/config').length).toBe(2));
  });

  it('lets a holder of manage-sso-config without the admin role read and test, not save', async () => {
    signOut();
    signInAs('sso-reader');
    const seen = renderSection({ 'POST sso/config/test-ldap': [200, { ok: true, message: 'Connected.' }] });
    await screen.findByLabelText<HTMLInputElement>(/^Directory host/);
    expect(screen.getByText(/Only administrators can change the sign-in configuration/)).toBeTruthy();
    type(/^Base DN/, 'ou=staff,dc=example,dc=com');
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Discard changes' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: /Test connection/ }));
    await waitFor(() => expect(posts(seen, 'sso/config/test-ldap')).toHaveLength(1));
    expect(posts(seen, 'sso/config')).toHaveLength(0);
  });
});

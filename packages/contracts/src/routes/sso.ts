import { z } from 'zod';
import { defineRoute } from '../route.js';
import { LoginBody, SignedInUser, authorize } from './auth.js';
import { PasskeyProof, SECOND_FACTOR_SECONDS, SecondFactorCode, SecondFactorMethod } from './two-factor-parts.js';

/** Auth types (spec §3): 1 password, 2 SAML, 3 OIDC, 4 LDAP. */
export const AuthType = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], {
  error: 'auth_type must be 1 (password), 2 (SAML), 3 (OIDC) or 4 (LDAP)',
});

const Text = (name: string, max = 500) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, `${name} is at most ${max} characters`);

/** Directory sign-in (spec §3 ldap_config). Filters take {email} (and {dn} for groups). */
export const LdapConfig = z
  .object({
    ldap_host: Text('ldap_host', 255).describe('host or host:port'),
    ldap_bind_user: Text('ldap_bind_user').describe('DN of the service account that searches'),
    ldap_bind_password_set: z.boolean().describe('Read-only: a bind password is stored'),
    ldap_base_dn: Text('ldap_base_dn'),
    ldap_use_ssl: z.boolean(),
    ldap_user_object_filter: Text('ldap_user_object_filter').describe(
      'e.g. (&(objectClass=inetOrgPerson)(mail={email}))',
    ),
    ldap_group_object_filter: Text('ldap_group_object_filter').describe(
      'e.g. (&(objectClass=groupOfNames)(member={dn}))',
    ),
  })
  .meta({ id: 'LdapConfig' });

/** OpenID Connect (spec §3 oidc_config, §9 default scope). */
export const OidcConfig = z
  .object({
    client_id: Text('client_id'),
    client_secret_set: z.boolean().describe('Read-only: a client secret is stored'),
    scope: Text('scope'),
    well_known_url: Text('well_known_url', 1000),
  })
  .meta({ id: 'OidcConfig' });

export const SAML_BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const SAML_BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const SAML_NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const Binding = z.enum([SAML_BINDING_REDIRECT, SAML_BINDING_POST], {
  error: 'binding must be the HTTP-Redirect or HTTP-POST binding URN',
});
const Contact = z.object({ givenName: Text('givenName', 200), emailAddress: Text('emailAddress', 320) });

/**
 * SAML (spec §3 saml_config, §9 defaults), in the shape of the usual SAML toolkits' settings:
 * this server is the service provider (sp), the organisation's identity provider is idp.
 */
export const SamlConfig = z
  .object({
    strict: z.boolean().describe('Refuse anything not signed, addressed and timed exactly right'),
    debug: z.boolean().describe('Log why each assertion was refused, in detail'),
    sp: z.object({
      entityId: Text('sp.entityId', 1000).describe('This server as the IdP knows it (default: its metadata URL)'),
      assertionConsumerService: z.object({ url: Text('sp.assertionConsumerService.url', 1000), binding: Binding }),
      singleLogoutService: z.object({ url: Text('sp.singleLogoutService.url', 1000), binding: Binding }),
      NameIDFormat: Text('sp.NameIDFormat', 300),
      x509cert: Text('sp.x509cert', 20_000).describe('Certificate of the key that signs AuthnRequests, if any'),
      privateKey_set: z.boolean().describe('Read-only: a signing key is stored'),
    }),
    idp: z.object({
      entityId: Text('idp.entityId', 1000),
      singleSignOnService: z.object({ url: Text('idp.singleSignOnService.url', 1000), binding: Binding }),
      singleLogoutService: z.object({ url: Text('idp.singleLogoutService.url', 1000), binding: Binding }),
      x509cert: Text('idp.x509cert', 20_000).describe('The certificate the IdP signs with (PEM or base64)'),
    }),
    security: z.object({
      authnRequestsSigned: z.boolean(),
      wantAssertionsSigned: z.boolean(),
      wantMessagesSigned: z.boolean(),
      rejectDeprecatedAlgorithm: z.boolean().describe('Refuse SHA-1 signatures and digests'),
      signatureAlgorithm: z.enum(['sha256', 'sha512']),
    }),
    contactPerson: z.object({ technical: Contact, support: Contact }),
    organization: z.object({
      name: Text('organization.name', 200),
      displayname: Text('organization.displayname', 200),
      url: Text('organization.url', 1000),
    }),
  })
  .meta({ id: 'SamlConfig' });

/** The auth config as the API answers it: secrets never, only whether they are set. */
export const AuthConfig = z
  .object({
    auth_type: AuthType,
    ldap_config: LdapConfig,
    oidc_config: OidcConfig,
    saml_config: SamlConfig,
    admin_groups: z
      .array(z.string())
      .describe(
        'Directory or identity-provider groups that give the admin role. Only these do: a provider group merely ' +
          'named admin gives nothing, and an account holding admin is signed in through the provider only when it ' +
          'sends one of these groups.',
      ),
    callback_urls: z
      .object({ oidc_redirect_uri: z.string(), saml_acs_url: z.string(), saml_metadata_url: z.string() })
      .describe('Read-only: the addresses to register at the identity provider'),
  })
  .meta({ id: 'AuthConfig' });

const HttpUrl = (name: string) =>
  z.union([z.literal(''), z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` }).max(1000)]);
const ContactInput = z.strictObject({
  givenName: Text('givenName', 200).optional(),
  emailAddress: Text('emailAddress', 320).optional(),
});

const SamlInput = z.strictObject({
  strict: z.boolean({ error: 'strict must be true or false' }).optional(),
  debug: z.boolean({ error: 'debug must be true or false' }).optional(),
  sp: z
    .strictObject({
      entityId: Text('sp.entityId', 1000).optional(),
      assertionConsumerService: z
        .strictObject({ url: HttpUrl('sp.assertionConsumerService.url'), binding: Binding })
        .partial()
        .optional(),
      singleLogoutService: z
        .strictObject({ url: HttpUrl('sp.singleLogoutService.url'), binding: Binding })
        .partial()
        .optional(),
      NameIDFormat: Text('sp.NameIDFormat', 300).optional(),
      x509cert: Text('sp.x509cert', 20_000).optional(),
      privateKey: z.string().max(20_000).optional().describe('Write-only PEM; empty keeps the stored one'),
    })
    .optional(),
  idp: z
    .strictObject({
      entityId: Text('idp.entityId', 1000).optional(),
      singleSignOnService: z
        .strictObject({ url: HttpUrl('idp.singleSignOnService.url'), binding: Binding })
        .partial()
        .optional(),
      singleLogoutService: z
        .strictObject({ url: HttpUrl('idp.singleLogoutService.url'), binding: Binding })
        .partial()
        .optional(),
      x509cert: Text('idp.x509cert', 20_000).optional(),
    })
    .optional(),
  security: z
    .strictObject({
      authnRequestsSigned: z.boolean(),
      wantAssertionsSigned: z.boolean(),
      wantMessagesSigned: z.boolean(),
      rejectDeprecatedAlgorithm: z.boolean(),
      signatureAlgorithm: z.enum(['sha256', 'sha512'], { error: 'signatureAlgorithm must be sha256 or sha512' }),
    })
    .partial()
    .optional(),
  contactPerson: z.strictObject({ technical: ContactInput, support: ContactInput }).partial().optional(),
  organization: z
    .strictObject({
      name: Text('organization.name', 200),
      displayname: Text('organization.displayname', 200),
      url: HttpUrl('organization.url'),
    })
    .partial()
    .optional(),
});

const LdapInput = z.strictObject({
  ldap_host: Text('ldap_host', 255).min(1, 'ldap_host is required').optional(),
  ldap_bind_user: Text('ldap_bind_user').optional(),
  ldap_bind_password: z.string().max(1024).optional().describe('Write-only; empty keeps the stored one'),
  ldap_base_dn: Text('ldap_base_dn').min(1, 'ldap_base_dn is required').optional(),
  ldap_use_ssl: z.boolean({ error: 'ldap_use_ssl must be true or false' }).optional(),
  ldap_user_object_filter: Text('ldap_user_object_filter')
    .refine((f) => f.includes('{email}'), 'ldap_user_object_filter must contain {email}')
    .optional(),
  ldap_group_object_filter: Text('ldap_group_object_filter').optional(),
});

export const getSsoConfig = defineRoute({
  id: 'sso.config.get',
  method: 'GET',
  path: '/sso/config',
  tag: 'auth',
  summary: 'The sign-in configuration (spec §3 Auth config). Secrets are never answered.',
  access: { kind: 'permissions', anyOf: ['manage-sso-config'] },
  response: AuthConfig,
});

export const saveSsoConfig = defineRoute({
  id: 'sso.config.save',
  method: 'POST',
  path: '/sso/config',
  tag: 'auth',
  summary:
    'Change the sign-in configuration: only the fields sent change; secrets are stored encrypted. Needs fresh ' +
    'authentication and the admin role (the configuration decides who every account is; manage-sso-config alone ' +
    'reads it and tests connections). Changing the directory host or service account drops the stored bind ' +
    'password, changing the OpenID provider or client id the client secret, unless a new one is sent. ' +
    'Administrators can always sign in with their password (break-glass).',
  access: { kind: 'permissions', anyOf: ['manage-sso-config'] },
  fresh: true,
  errors: { 403: 'the caller does not hold the admin role (nothing was saved)' },
  body: z.strictObject({
    auth_type: AuthType.optional(),
    ldap_config: LdapInput.optional(),
    oidc_config: z
      .strictObject({
        client_id: Text('client_id').optional(),
        client_secret: z.string().max(1024).optional().describe('Write-only; empty keeps the stored one'),
        scope: Text('scope').optional(),
        well_known_url: z
          .url({ protocol: /^https?$/, error: 'well_known_url must be an http(s) URL' })
          .max(1000)
          .optional(),
      })
      .optional(),
    saml_config: SamlInput.optional(),
    admin_groups: z
      .array(Text('admin_groups', 200).min(1, 'An admin group name cannot be empty'), {
        error: 'admin_groups must be a list of group names',
      })
      .max(50, 'At most 50 admin groups')
      .optional(),
  }),
  response: z.object({ message: z.string(), config: AuthConfig }),
});

export const testLdap = defineRoute({
  id: 'sso.config.test-ldap',
  method: 'POST',
  path: '/sso/config/test-ldap',
  tag: 'auth',
  summary:
    'Tries the directory settings (the stored ones, overridden by any sent): connect, bind as the service account, ' +
    'search the base DN. Answers what worked and what failed, in words.',
  access: { kind: 'permissions', anyOf: ['manage-sso-config'] },
  body: LdapInput,
  response: z.object({ ok: z.boolean(), message: z.string(), users_found: z.number().int().optional() }),
});

export const ldapLogin = defineRoute({
  id: 'auth.ldap-login',
  method: 'POST',
  path: '/ldap/login',
  tag: 'auth',
  summary:
    'Sign in with a directory account (auth type 4): the user is found with the user filter, bound with their ' +
    'password, and created or updated here; directory groups named like Gatehouse roles give those roles, and like ' +
    'Gatehouse groups make them members.',
  access: { kind: 'public' },
  query: z.object({ include_auth_token: z.string().optional() }),
  body: LoginBody,
  response: z.object({ response: z.object({ user: SignedInUser }) }),
});

export const testOidc = defineRoute({
  id: 'sso.config.test-oidc',
  method: 'POST',
  path: '/sso/config/test-oidc',
  tag: 'auth',
  summary:
    'Tries the OpenID Connect settings (the stored ones, overridden by any sent): fetch the discovery document from ' +
    'well_known_url and check it names an issuer, an authorization and a token endpoint, and supports PKCE (S256).',
  access: { kind: 'permissions', anyOf: ['manage-sso-config'] },
  body: z.strictObject({
    well_known_url: z
      .url({ protocol: /^https?$/, error: 'well_known_url must be an http(s) URL' })
      .max(1000)
      .optional(),
  }),
  response: z.object({ ok: z.boolean(), message: z.string(), issuer: z.string().optional() }),
});

/** The second step of a single sign-on re-authorization, for someone with a second factor (issue 20). */
export const SsoSecondFactorStep = z
  .object({
    step: z
      .string()
      .describe(
        `Send it to POST /sso/second-factor with the code or passkey, within ${SECOND_FACTOR_SECONDS / 60} minutes, ` +
          'from the session that started the re-authorization; it works once',
      ),
    methods: z.array(SecondFactorMethod).describe('The ways the user can prove their second factor'),
    expires_at: z.string(),
  })
  .meta({ id: 'SsoSecondFactorStep' });

/** Why a single sign-on flow starts: to sign in, or to re-authorize the signed-in caller (§2.8). */
export const SsoPurpose = z.enum(['signin', 'authorize'], { error: 'purpose must be signin or authorize' });

export const startSso = defineRoute({
  id: 'sso.start',
  method: 'POST',
  path: '/sso/start',
  tag: 'auth',
  summary:
    'Begins a single sign-on (SAML or OIDC, whichever is configured): answers the identity provider address to send ' +
    'the browser to, and binds the flow to this browser with a cookie. purpose authorize needs the caller’s token ' +
    'and ends in a one-shot (or fresh) token for that same user only.',
  access: { kind: 'public' },
  body: z.strictObject({ purpose: SsoPurpose.default('signin') }),
  response: z.object({ redirect_url: z.string() }),
  errors: { 400: 'Single sign-on is not configured', 401: 'authorize without a valid token' },
});

export const oidcCallback = defineRoute({
  id: 'sso.oidc-callback',
  method: 'GET',
  path: '/sso/oidc/callback',
  tag: 'auth',
  summary:
    'Where the OpenID provider sends the browser back: checks state, the PKCE verifier and the ID token’s nonce, ' +
    'then sends the browser to the console’s /sso screen (which fetches GET /sso/token), or there with ?error=.',
  access: { kind: 'public' },
  query: z.record(z.string(), z.unknown()),
  raw: 'text/html',
  response: z.string(),
});

export const samlAcs = defineRoute({
  id: 'sso.saml-acs',
  method: 'POST',
  path: '/saml/acs',
  tag: 'auth',
  summary:
    'The assertion consumer service (HTTP-POST binding): checks the signature, audience, recipient, time conditions, ' +
    'InResponseTo and that the assertion was never used before, then sends the browser to the console’s /sso screen.',
  access: { kind: 'public' },
  raw: 'text/html',
  response: z.string(),
});

export const samlMetadata = defineRoute({
  id: 'sso.saml-metadata',
  method: 'GET',
  path: '/saml/metadata',
  tag: 'auth',
  summary: 'This server’s SAML service-provider metadata, to register it at the identity provider.',
  access: { kind: 'public' },
  raw: 'application/samlmetadata+xml',
  response: z.string(),
});

export const ssoToken = defineRoute({
  id: 'sso.token',
  method: 'GET',
  path: '/sso/token',
  tag: 'auth',
  summary:
    'After a completed single sign-on, answers the user with authentication_token and roles, once (the flow’s ' +
    'cookie is used up). For purpose authorize, authentication_token is a one-shot token (kind oneshot) or a fresh ' +
    'session token that replaces the caller’s (kind session).',
  access: { kind: 'public' },
  response: z.union([
    z.object({
      purpose: SsoPurpose,
      kind: z.enum(['oneshot', 'session']),
      response: z.object({ user: SignedInUser }),
    }),
    z.object({
      purpose: z.literal('authorize'),
      kind: z.literal('second-factor').describe('The account has a second factor: POST /sso/second-factor follows'),
      second_factor: SsoSecondFactorStep,
    }),
  ]),
  errors: { 401: 'No completed sign-on in this browser, or it expired' },
});

export const ssoSecondFactor = defineRoute({
  id: 'sso.second-factor',
  method: 'POST',
  path: '/sso/second-factor',
  tag: 'auth',
  summary:
    'Finishes a single sign-on re-authorization of someone with a second factor: the step GET /sso/token answered, ' +
    'sent with the same session token that started the flow, plus a code (app or recovery) or a passkey (an answer ' +
    'to POST /api/auth/second-factor/options). The step is used up by the first right answer. Answers as ' +
    'POST /api/auth/authorize does. Wrong codes count toward the email’s lockout; a code is accepted once.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'enrol',
  body: z
    .strictObject({
      step: z.string({ error: 'step is required' }).min(1, 'step is required').max(256, 'step is too long'),
      code: SecondFactorCode.optional(),
      passkey: PasskeyProof.optional(),
    })
    .refine((b) => (b.code === undefined) !== (b.passkey === undefined), 'Send either a code or a passkey'),
  response: authorize.response,
  errors: {
    401: 'Wrong code or passkey; or the step expired or was used already',
    403: 'The step belongs to another user or session',
    429: 'Too many attempts',
  },
});

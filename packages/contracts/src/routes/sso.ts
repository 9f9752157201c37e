import { z } from 'zod';
import { defineRoute } from '../route.js';
import { LoginBody, SignedInUser } from './auth.js';

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

/** The auth config as the API answers it: secrets never, only whether they are set. */
export const AuthConfig = z
  .object({
    auth_type: AuthType,
    ldap_config: LdapConfig,
    oidc_config: OidcConfig,
    saml_config: z.record(z.string(), z.unknown()).describe('SAML settings (issue 8 completes them); §9 defaults'),
  })
  .meta({ id: 'AuthConfig' });

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
    'authentication. Administrators can always sign in with their password (break-glass).',
  access: { kind: 'permissions', anyOf: ['manage-sso-config'] },
  fresh: true,
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

import type { AuthConfig, LdapTestBody, SsoConfigBody } from '../api/sso-config';

/** Sign-in types (spec §3): 1 password, 2 SAML, 3 OIDC, 4 LDAP. */
export type AuthTypeValue = AuthConfig['auth_type'];

/** The external providers, in the order the screen shows them. */
export const PROVIDERS = ['ldap', 'oidc', 'saml'] as const;
/** One of them. */
export type Provider = (typeof PROVIDERS)[number];

/** The auth type each provider signs in with. */
export const PROVIDER_AUTH_TYPE = { ldap: 4, oidc: 3, saml: 2 } as const satisfies Record<Provider, AuthTypeValue>;

/** The provider of an auth type; null for password only. */
export function providerOf(authType: AuthTypeValue): Provider | null {
  switch (authType) {
    case 1:
      return null;
    case 2:
      return 'saml';
    case 3:
      return 'oidc';
    case 4:
      return 'ldap';
  }
}

/** A SAML binding URN, as the contract names them. */
export type SamlBinding = AuthConfig['saml_config']['idp']['singleSignOnService']['binding'];
/** The two bindings (packages/contracts routes/sso.ts). */
export const SAML_BINDINGS = [
  'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
] as const satisfies readonly SamlBinding[];
/** Signature algorithms offered. */
export type SignatureAlgorithm = AuthConfig['saml_config']['security']['signatureAlgorithm'];
/** The usual NameID formats; a stored one outside this list is offered as well. */
export const NAMEID_FORMATS = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
] as const;

/** The directory form. `bindPassword` is a new password; empty keeps the stored one. */
export interface LdapForm {
  host: string;
  useSsl: boolean;
  bindUser: string;
  bindPassword: string;
  baseDn: string;
  userFilter: string;
  groupFilter: string;
}

/** The OpenID Connect form. `clientSecret` is a new secret; empty keeps the stored one. */
export interface OidcForm {
  wellKnownUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

/** The SAML form, flat (one entry per control). `spPrivateKey` is a new key; empty keeps the stored one. */
export interface SamlForm {
  idpEntityId: string;
  idpSsoUrl: string;
  idpSsoBinding: SamlBinding;
  idpSloUrl: string;
  idpSloBinding: SamlBinding;
  idpCert: string;
  spEntityId: string;
  spAcsUrl: string;
  spAcsBinding: SamlBinding;
  spSloUrl: string;
  spSloBinding: SamlBinding;
  spNameIdFormat: string;
  spCert: string;
  spPrivateKey: string;
  strict: boolean;
  debug: boolean;
  authnRequestsSigned: boolean;
  wantAssertionsSigned: boolean;
  wantMessagesSigned: boolean;
  rejectDeprecatedAlgorithm: boolean;
  signatureAlgorithm: SignatureAlgorithm;
  technicalName: string;
  technicalEmail: string;
  supportName: string;
  supportEmail: string;
  orgName: string;
  orgDisplayName: string;
  orgUrl: string;
}

/** The whole form: the chosen sign-in type and each provider's settings. */
export interface SsoForm {
  authType: AuthTypeValue;
  ldap: LdapForm;
  oidc: OidcForm;
  saml: SamlForm;
  /** Provider groups that give the admin role, as typed (comma or line separated). */
  adminGroups: string;
}

/** The admin-mapped groups typed in the form, as a list (blank entries and repeats dropped). */
export function parseAdminGroups(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((group) => group.trim())
        .filter(Boolean),
    ),
  ];
}

/** The form for the stored configuration; secrets start empty (kept). */
export function toSsoForm(config: AuthConfig): SsoForm {
  const { ldap_config: l, oidc_config: o, saml_config: s } = config;
  return {
    authType: config.auth_type,
    adminGroups: config.admin_groups.join(', '),
    ldap: {
      host: l.ldap_host,
      useSsl: l.ldap_use_ssl,
      bindUser: l.ldap_bind_user,
      bindPassword: '',
      baseDn: l.ldap_base_dn,
      userFilter: l.ldap_user_object_filter,
      groupFilter: l.ldap_group_object_filter,
    },
    oidc: { wellKnownUrl: o.well_known_url, clientId: o.client_id, clientSecret: '', scope: o.scope },
    saml: {
      idpEntityId: s.idp.entityId,
      idpSsoUrl: s.idp.singleSignOnService.url,
      idpSsoBinding: s.idp.singleSignOnService.binding,
      idpSloUrl: s.idp.singleLogoutService.url,
      idpSloBinding: s.idp.singleLogoutService.binding,
      idpCert: s.idp.x509cert,
      spEntityId: s.sp.entityId,
      spAcsUrl: s.sp.assertionConsumerService.url,
      spAcsBinding: s.sp.assertionConsumerService.binding,
      spSloUrl: s.sp.singleLogoutService.url,
      spSloBinding: s.sp.singleLogoutService.binding,
      spNameIdFormat: s.sp.NameIDFormat,
      spCert: s.sp.x509cert,
      spPrivateKey: '',
      strict: s.strict,
      debug: s.debug,
      authnRequestsSigned: s.security.authnRequestsSigned,
      wantAssertionsSigned: s.security.wantAssertionsSigned,
      wantMessagesSigned: s.security.wantMessagesSigned,
      rejectDeprecatedAlgorithm: s.security.rejectDeprecatedAlgorithm,
      signatureAlgorithm: s.security.signatureAlgorithm,
      technicalName: s.contactPerson.technical.givenName,
      technicalEmail: s.contactPerson.technical.emailAddress,
      supportName: s.contactPerson.support.givenName,
      supportEmail: s.contactPerson.support.emailAddress,
      orgName: s.organization.name,
      orgDisplayName: s.organization.displayname,
      orgUrl: s.organization.url,
    },
  };
}

/** The entries of `now` that differ from `was`. */
function changes<T extends object>(now: T, was: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(now) as (keyof T)[]) if (now[key] !== was[key]) out[key] = now[key];
  return out;
}

/** `value` without undefined entries and without objects left empty; undefined when nothing is left. */
function compact<T>(value: T): T | undefined {
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const kept = compact(entry as unknown);
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length > 0 ? (out as T) : undefined;
}

/** True when the form differs from the stored configuration. */
export function isSsoFormChanged(form: SsoForm, initial: SsoForm): boolean {
  return JSON.stringify(form) !== JSON.stringify(initial);
}

/** True when one provider's part of the form differs from the stored one. */
export function isProviderChanged(form: SsoForm, initial: SsoForm, provider: Provider): boolean {
  return JSON.stringify(form[provider]) !== JSON.stringify(initial[provider]);
}

/**
 * The body to save: only what changed, nested as the contract wants (secrets only when typed).
 * Call only when validateSsoForm found nothing.
 */
export function toSsoBody(form: SsoForm, initial: SsoForm): SsoConfigBody {
  const l = changes(form.ldap, initial.ldap);
  const o = changes(form.oidc, initial.oidc);
  const s = changes(form.saml, initial.saml);
  const body: SsoConfigBody = {
    auth_type: form.authType !== initial.authType ? form.authType : undefined,
    ldap_config: {
      ldap_host: l.host?.trim(),
      ldap_use_ssl: l.useSsl,
      ldap_bind_user: l.bindUser,
      ldap_bind_password: l.bindPassword || undefined,
      ldap_base_dn: l.baseDn?.trim(),
      ldap_user_object_filter: l.userFilter,
      ldap_group_object_filter: l.groupFilter,
    },
    oidc_config: {
      well_known_url: o.wellKnownUrl?.trim(),
      client_id: o.clientId,
      client_secret: o.clientSecret || undefined,
      scope: o.scope,
    },
    saml_config: {
      strict: s.strict,
      debug: s.debug,
      idp: {
        entityId: s.idpEntityId,
        singleSignOnService: { url: s.idpSsoUrl?.trim(), binding: s.idpSsoBinding },
        singleLogoutService: { url: s.idpSloUrl?.trim(), binding: s.idpSloBinding },
        x509cert: s.idpCert,
      },
      sp: {
        entityId: s.spEntityId,
        assertionConsumerService: { url: s.spAcsUrl?.trim(), binding: s.spAcsBinding },
        singleLogoutService: { url: s.spSloUrl?.trim(), binding: s.spSloBinding },
        NameIDFormat: s.spNameIdFormat,
        x509cert: s.spCert,
        privateKey: s.spPrivateKey || undefined,
      },
      security: {
        authnRequestsSigned: s.authnRequestsSigned,
        wantAssertionsSigned: s.wantAssertionsSigned,
        wantMessagesSigned: s.wantMessagesSigned,
        rejectDeprecatedAlgorithm: s.rejectDeprecatedAlgorithm,
        signatureAlgorithm: s.signatureAlgorithm,
      },
      contactPerson: {
        technical: { givenName: s.technicalName, emailAddress: s.technicalEmail },
        support: { givenName: s.supportName, emailAddress: s.supportEmail },
      },
      organization: { name: s.orgName, displayname: s.orgDisplayName, url: s.orgUrl?.trim() },
    },
  };
  const out = compact(body) ?? {};
  // A list, possibly empty (to clear it): kept out of compact, which drops empty values.
  if (form.adminGroups !== initial.adminGroups) out.admin_groups = parseAdminGroups(form.adminGroups);
  return out;
}

/**
 * What a directory test sends: the directory fields as typed (the password only when typed; a
 * blank host or base DN is left out, and the server then says what is missing).
 */
export function toLdapTestBody(ldap: LdapForm): LdapTestBody {
  return (
    compact({
      ldap_host: ldap.host.trim() || undefined,
      ldap_use_ssl: ldap.useSsl,
      ldap_bind_user: ldap.bindUser,
      ldap_bind_password: ldap.bindPassword || undefined,
      ldap_base_dn: ldap.baseDn.trim() || undefined,
      ldap_user_object_filter: ldap.userFilter,
      ldap_group_object_filter: ldap.groupFilter,
    }) ?? {}
  );
}

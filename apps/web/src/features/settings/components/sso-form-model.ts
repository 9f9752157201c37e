import type { AuthConfig, LdapTestBody, SsoConfigBody } from '../api/sso-config';
import type { FieldError } from '../model/general-form';

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
}

/** Keys of a form's text fields (the ones that can be wrong). */
type TextKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];
/** Messages of the wrong fields of one provider. */
export type FieldErrors<T> = Partial<Record<TextKeys<T>, FieldError>>;

/** Messages of the wrong fields, per provider. */
export interface SsoErrors {
  ldap: FieldErrors<LdapForm>;
  oidc: FieldErrors<OidcForm>;
  saml: FieldErrors<SamlForm>;
}

/** The form for the stored configuration; secrets start empty (kept). */
export function toSsoForm(config: AuthConfig): SsoForm {
  const { ldap_config: l, oidc_config: o, saml_config: s } = config;
  return {
    authType: config.auth_type,
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
  return compact(body) ?? {};
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

/** True for an http(s) URL, as the server accepts. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Longest texts the server takes (packages/contracts routes/sso.ts). */
const MAX: { [P in Provider]: Partial<Record<TextKeys<SsoForm[P]>, number>> } = {
  ldap: { host: 255, bindUser: 500, bindPassword: 1024, baseDn: 500, userFilter: 500, groupFilter: 500 },
  oidc: { wellKnownUrl: 1000, clientId: 500, clientSecret: 1024, scope: 500 },
  saml: {
    idpEntityId: 1000,
    idpSsoUrl: 1000,
    idpSloUrl: 1000,
    idpCert: 20_000,
    spEntityId: 1000,
    spAcsUrl: 1000,
    spSloUrl: 1000,
    spNameIdFormat: 300,
    spCert: 20_000,
    spPrivateKey: 20_000,
    technicalName: 200,
    technicalEmail: 320,
    supportName: 200,
    supportEmail: 320,
    orgName: 200,
    orgDisplayName: 200,
    orgUrl: 1000,
  },
};

function lengthErrors<T extends object>(form: T, max: Partial<Record<TextKeys<T>, number>>): FieldErrors<T> {
  const errors: FieldErrors<T> = {};
  for (const [key, limit] of Object.entries(max) as [TextKeys<T>, number][]) {
    const value = form[key];
    if (typeof value === 'string' && value.trim().length > limit)
      errors[key] = { key: 'settings.sso.errors.tooLong', values: { max: limit } };
  }
  return errors;
}

const REQUIRED: FieldError = { key: 'settings.sso.errors.required' };
const URL_ERROR: FieldError = { key: 'settings.sso.errors.url' };
const blank = (text: string) => text.trim() === '';

function validateLdap(form: LdapForm, initial: LdapForm, active: boolean): FieldErrors<LdapForm> {
  const errors = lengthErrors(form, MAX.ldap);
  // The server refuses an empty host or base DN when sent, so one that was set cannot be cleared.
  if (blank(form.host) && (active || !blank(initial.host))) errors.host = REQUIRED;
  if (blank(form.baseDn) && (active || !blank(initial.baseDn))) errors.baseDn = REQUIRED;
  if (!form.userFilter.includes('{email}')) errors.userFilter = { key: 'settings.sso.errors.emailPlaceholder' };
  return errors;
}

function validateOidc(form: OidcForm, initial: OidcForm, active: boolean): FieldErrors<OidcForm> {
  const errors = lengthErrors(form, MAX.oidc);
  if (blank(form.wellKnownUrl)) {
    if (active || !blank(initial.wellKnownUrl)) errors.wellKnownUrl = REQUIRED;
  } else if (!isHttpUrl(form.wellKnownUrl)) errors.wellKnownUrl = URL_ERROR;
  if (active && blank(form.clientId)) errors.clientId = REQUIRED;
  // Without openid the provider answers no ID token, and sign-in cannot complete.
  if (!blank(form.scope) && !form.scope.split(/\s+/).includes('openid'))
    errors.scope = { key: 'settings.sso.errors.openidScope' };
  return errors;
}

const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+$/.test(text.trim());

function validateSaml(form: SamlForm, active: boolean): FieldErrors<SamlForm> {
  const errors = lengthErrors(form, MAX.saml);
  for (const key of ['idpSsoUrl', 'idpSloUrl', 'spAcsUrl', 'spSloUrl', 'orgUrl'] as const)
    if (!blank(form[key]) && !isHttpUrl(form[key])) errors[key] = URL_ERROR;
  for (const key of ['technicalEmail', 'supportEmail'] as const)
    if (!blank(form[key]) && !looksLikeEmail(form[key])) errors[key] = { key: 'settings.sso.errors.email' };
  if (active)
    for (const key of ['idpEntityId', 'idpSsoUrl', 'idpCert'] as const) if (blank(form[key])) errors[key] = REQUIRED;
  return errors;
}

/**
 * Checks the form as the server would (http(s) URLs, {email} in the user filter, lengths, a set
 * host or base DN not cleared), and that the chosen method has what sign-in needs.
 */
export function validateSsoForm(form: SsoForm, initial: SsoForm): SsoErrors {
  const active = providerOf(form.authType);
  return {
    ldap: validateLdap(form.ldap, initial.ldap, active === 'ldap'),
    oidc: validateOidc(form.oidc, initial.oidc, active === 'oidc'),
    saml: validateSaml(form.saml, active === 'saml'),
  };
}

/** The providers whose fields are wrong, in screen order. */
export function providersWithErrors(errors: SsoErrors): Provider[] {
  return PROVIDERS.filter((provider) => Object.keys(errors[provider]).length > 0);
}

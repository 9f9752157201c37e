import type { FieldError } from '../model/general-form';
import type { LdapForm, OidcForm, Provider, SamlForm, SsoForm } from './sso-form-model';
import { PROVIDERS, providerOf } from './sso-form-model';

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

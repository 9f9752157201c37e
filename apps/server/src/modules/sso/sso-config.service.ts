import {
  SAML_BINDING_POST,
  SAML_BINDING_REDIRECT,
  SAML_NAMEID_EMAIL,
  type AuthConfig,
  type ParsedBodyOf,
  type Routes,
  type SamlConfig,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { SecretBox } from '../../lib/secret-box.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

const KEY = 'auth';

/** The directory settings with the bind password opened, for signing in. */
export interface LdapSettings {
  host: string;
  bindUser: string;
  bindPassword: string;
  baseDn: string;
  useSsl: boolean;
  userFilter: string;
  groupFilter: string;
  /**
   * True when a test names another host or service account than the saved ones and sends no
   * password: the stored password was given for the saved server and account only, and is not
   * sent anywhere else (issue 14).
   */
  passwordWithheld?: boolean;
}

/** Compares directory hosts as typed ("LDAP.example:389 " and "ldap.example:389" are one host). */
const sameHost = (a: string | undefined, b: string | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

interface Stored {
  auth_type?: 1 | 2 | 3 | 4;
  ldap_config?: {
    ldap_host?: string;
    ldap_bind_user?: string;
    ldap_bind_password_sealed?: string;
    ldap_base_dn?: string;
    ldap_use_ssl?: boolean;
    ldap_user_object_filter?: string;
    ldap_group_object_filter?: string;
  };
  oidc_config?: { client_id?: string; client_secret_sealed?: string; scope?: string; well_known_url?: string };
  /** As sent (deep-merged), without sp.privateKey, which is kept sealed beside it. */
  saml_config?: Record<string, unknown>;
  saml_private_key_sealed?: string;
  /** Provider groups the administrator mapped to the admin role (issue 14: nothing else gives it). */
  admin_groups?: string[];
}

/** OpenID Connect settings with the client secret opened, for signing in. */
export interface OidcSettings {
  clientId: string;
  clientSecret: string;
  scope: string;
  wellKnownUrl: string;
}

/** SAML settings as answered, with the SP signing key opened (empty when none). */
export type SamlSettings = z.infer<typeof SamlConfig> & { spPrivateKey: string };

/** Where the identity providers send people back, under the console's public address. */
export function callbackUrls(base: string) {
  return {
    oidc_redirect_uri: `${base}/sso/oidc/callback`,
    saml_acs_url: `${base}/saml/acs`,
    saml_metadata_url: `${base}/saml/metadata`,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `over` merged into `base`, objects by key, other values replaced. */
function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    const current = out[k];
    out[k] = isObject(v) && isObject(current) ? deepMerge(current, v) : v;
  }
  return out;
}

/** Spec §9 defaults of SAML; the addresses of this server fill in the SP's empty ones. */
function samlDefaults(base: string): Omit<z.infer<typeof SamlConfig>, 'sp'> & {
  sp: Omit<z.infer<typeof SamlConfig>['sp'], 'privateKey_set'>;
} {
  const urls = callbackUrls(base);
  return {
    strict: true,
    debug: false,
    sp: {
      entityId: urls.saml_metadata_url,
      assertionConsumerService: { url: urls.saml_acs_url, binding: SAML_BINDING_POST },
      singleLogoutService: { url: '', binding: SAML_BINDING_REDIRECT },
      NameIDFormat: SAML_NAMEID_EMAIL,
      x509cert: '',
    },
    idp: {
      entityId: '',
      singleSignOnService: { url: '', binding: SAML_BINDING_REDIRECT },
      singleLogoutService: { url: '', binding: SAML_BINDING_REDIRECT },
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
  };
}

/**
 * The sign-in configuration (spec §3 Auth config), one document in the settings table shared by
 * every instance; secrets sealed with the server's key and never answered.
 */
export class SsoConfigService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    /** The console's public address (general settings' public_url, else the server's). */
    readonly baseUrl: () => Promise<string>,
  ) {}

  private async stored(): Promise<Stored> {
    return ((await this.settings.get(KEY)) as Stored | undefined) ?? {};
  }

  /** The configured sign-in type (1 password when none). */
  async authType(): Promise<1 | 2 | 3 | 4> {
    return (await this.stored()).auth_type ?? 1;
  }

  async get(): Promise<z.infer<typeof AuthConfig>> {
    const s = await this.stored();
    const l = s.ldap_config ?? {};
    const o = s.oidc_config ?? {};
    return {
      auth_type: s.auth_type ?? 1,
      ldap_config: {
        ldap_host: l.ldap_host ?? '',
        ldap_bind_user: l.ldap_bind_user ?? '',
        ldap_bind_password_set: Boolean(l.ldap_bind_password_sealed),
        ldap_base_dn: l.ldap_base_dn ?? '',
        ldap_use_ssl: l.ldap_use_ssl ?? false,
        ldap_user_object_filter: l.ldap_user_object_filter ?? '(&(objectClass=inetOrgPerson)(mail={email}))',
        ldap_group_object_filter: l.ldap_group_object_filter ?? '(&(objectClass=groupOfNames)(member={dn}))',
      },
      oidc_config: {
        client_id: o.client_id ?? '',
        client_secret_set: Boolean(o.client_secret_sealed),
        scope: o.scope ?? 'profile email openid',
        well_known_url: o.well_known_url ?? '',
      },
      saml_config: await this.samlAnswer(s),
      admin_groups: s.admin_groups ?? [],
      callback_urls: callbackUrls(await this.baseUrl()),
    };
  }

  private async samlAnswer(s: Stored): Promise<z.infer<typeof SamlConfig>> {
    const merged = deepMerge(samlDefaults(await this.baseUrl()), s.saml_config ?? {}) as ReturnType<
      typeof samlDefaults
    >;
    // Empty SP addresses mean this server's own.
    const defaults = samlDefaults(await this.baseUrl());
    if (!merged.sp.entityId) merged.sp.entityId = defaults.sp.entityId;
    if (!merged.sp.assertionConsumerService.url)
      merged.sp.assertionConsumerService.url = defaults.sp.assertionConsumerService.url;
    return { ...merged, sp: { ...merged.sp, privateKey_set: Boolean(s.saml_private_key_sealed) } };
  }

  /** The provider groups the administrator mapped to the admin role, compared case-insensitively. */
  async adminGroups(): Promise<string[]> {
    return ((await this.stored()).admin_groups ?? []).map((g) => g.toLowerCase());
  }

  /** The SAML settings with the SP's signing key opened. */
  async saml(): Promise<SamlSettings> {
    const s = await this.stored();
    const answer = await this.samlAnswer(s);
    return { ...answer, spPrivateKey: s.saml_private_key_sealed ? this.box.open(s.saml_private_key_sealed) : '' };
  }

  /** The OpenID Connect settings with the client secret opened. */
  async oidc(): Promise<OidcSettings> {
    const s = await this.stored();
    const o = (await this.get()).oidc_config;
    const sealed = s.oidc_config?.client_secret_sealed;
    return {
      clientId: o.client_id,
      clientSecret: sealed ? this.box.open(sealed) : '',
      scope: o.scope,
      wellKnownUrl: o.well_known_url,
    };
  }

  /** The stored directory settings with the sent ones over them (for a test before saving). */
  async ldap(overrides: ParsedBodyOf<Routes['testLdap']> = {}): Promise<LdapSettings> {
    const current = (await this.get()).ldap_config;
    const sealed = (await this.stored()).ldap_config?.ldap_bind_password_sealed;
    const host = overrides.ldap_host ?? current.ldap_host;
    const bindUser = overrides.ldap_bind_user ?? current.ldap_bind_user;
    // The stored password goes only to the saved host, for the saved account.
    const elsewhere = !sameHost(host, current.ldap_host) || bindUser !== current.ldap_bind_user;
    const passwordWithheld = !overrides.ldap_bind_password && Boolean(sealed) && elsewhere;
    return {
      host,
      bindUser,
      bindPassword: overrides.ldap_bind_password || (sealed && !elsewhere ? this.box.open(sealed) : ''),
      passwordWithheld,
      baseDn: overrides.ldap_base_dn ?? current.ldap_base_dn,
      useSsl: overrides.ldap_use_ssl ?? current.ldap_use_ssl,
      userFilter: overrides.ldap_user_object_filter ?? current.ldap_user_object_filter,
      groupFilter: overrides.ldap_group_object_filter ?? current.ldap_group_object_filter,
    };
  }

  /**
   * Saves a change. A stored secret was given for one server and one account: changing the
   * directory host or service account drops the bind password, and changing the OpenID provider's
   * well-known URL or the client id drops the client secret, unless a new one comes in the same
   * change (issue 14: otherwise whoever may edit the form could send it to a server of theirs).
   */
  async save(body: ParsedBodyOf<Routes['saveSsoConfig']>) {
    const s = await this.stored();
    const next: Stored = { ...s, auth_type: body.auth_type ?? s.auth_type ?? 1 };
    const dropped: string[] = [];
    if (body.ldap_config) {
      const { ldap_bind_password: password, ...rest } = body.ldap_config;
      const merged = { ...s.ldap_config, ...rest };
      const moved =
        !sameHost(merged.ldap_host, s.ldap_config?.ldap_host) ||
        (merged.ldap_bind_user ?? '') !== (s.ldap_config?.ldap_bind_user ?? '');
      let sealed = moved ? undefined : s.ldap_config?.ldap_bind_password_sealed;
      if (password) sealed = this.box.seal(password);
      else if (moved && s.ldap_config?.ldap_bind_password_sealed) dropped.push('the directory bind password');
      next.ldap_config = { ...merged, ldap_bind_password_sealed: sealed };
    }
    if (body.oidc_config) {
      const { client_secret: secret, ...rest } = body.oidc_config;
      const merged = { ...s.oidc_config, ...rest };
      const moved =
        (merged.well_known_url ?? '').trim() !== (s.oidc_config?.well_known_url ?? '').trim() ||
        (merged.client_id ?? '') !== (s.oidc_config?.client_id ?? '');
      let sealed = moved ? undefined : s.oidc_config?.client_secret_sealed;
      if (secret) sealed = this.box.seal(secret);
      else if (moved && s.oidc_config?.client_secret_sealed) dropped.push('the OpenID Connect client secret');
      next.oidc_config = { ...merged, client_secret_sealed: sealed };
    }
    if (body.saml_config) {
      const { sp, ...rest } = body.saml_config;
      const { privateKey, ...spRest } = sp ?? {};
      next.saml_config = deepMerge(s.saml_config ?? {}, { ...rest, ...(sp ? { sp: spRest } : {}) });
      if (privateKey) next.saml_private_key_sealed = this.box.seal(privateKey);
    }
    if (body.admin_groups) next.admin_groups = [...new Set(body.admin_groups)];
    await this.settings.put(KEY, next);
    const message = dropped.length
      ? `Configuration saved. ${dropped.join(' and ')} ${dropped.length > 1 ? 'were' : 'was'} removed because the ` +
        'server or account changed: enter it again.'
      : 'Configuration saved.';
    return { message, config: await this.get() };
  }
}

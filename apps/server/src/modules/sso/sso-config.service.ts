import type { AuthConfig, ParsedBodyOf, Routes } from '@gatehouse/contracts';
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
}

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
}

/** Spec §9 defaults of SAML, kept until issue 8 completes SAML. */
const SAML_DEFAULTS = {
  strict: true,
  debug: false,
  sp: {
    assertionConsumerService: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST' },
    NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  },
  idp: {
    singleSignOnService: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' },
    singleLogoutService: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' },
  },
  security: { rejectDeprecatedAlgorithm: true },
};

/**
 * The sign-in configuration (spec §3 Auth config), one document in the settings table shared by
 * every instance; secrets sealed with the server's key and never answered.
 */
export class SsoConfigService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
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
      saml_config: SAML_DEFAULTS,
    };
  }

  /** The stored directory settings with the sent ones over them (for a test before saving). */
  async ldap(overrides: ParsedBodyOf<Routes['testLdap']> = {}): Promise<LdapSettings> {
    const current = (await this.get()).ldap_config;
    const sealed = (await this.stored()).ldap_config?.ldap_bind_password_sealed;
    return {
      host: overrides.ldap_host ?? current.ldap_host,
      bindUser: overrides.ldap_bind_user ?? current.ldap_bind_user,
      bindPassword: overrides.ldap_bind_password || (sealed ? this.box.open(sealed) : ''),
      baseDn: overrides.ldap_base_dn ?? current.ldap_base_dn,
      useSsl: overrides.ldap_use_ssl ?? current.ldap_use_ssl,
      userFilter: overrides.ldap_user_object_filter ?? current.ldap_user_object_filter,
      groupFilter: overrides.ldap_group_object_filter ?? current.ldap_group_object_filter,
    };
  }

  async save(body: ParsedBodyOf<Routes['saveSsoConfig']>) {
    const s = await this.stored();
    const next: Stored = { ...s, auth_type: body.auth_type ?? s.auth_type ?? 1 };
    if (body.ldap_config) {
      const { ldap_bind_password: password, ...rest } = body.ldap_config;
      next.ldap_config = {
        ...s.ldap_config,
        ...rest,
        ...(password ? { ldap_bind_password_sealed: this.box.seal(password) } : {}),
      };
    }
    if (body.oidc_config) {
      const { client_secret: secret, ...rest } = body.oidc_config;
      next.oidc_config = {
        ...s.oidc_config,
        ...rest,
        ...(secret ? { client_secret_sealed: this.box.seal(secret) } : {}),
      };
    }
    await this.settings.put(KEY, next);
    return { message: 'Configuration saved.', config: await this.get() };
  }
}

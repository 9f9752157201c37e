import { MockError, type MockContext, type NamedHandler, route } from '../http';
import { fieldsOf, flag, num, required, text } from '../body';
import { versionsOf } from '../data/system';
import type { Answer, MockState } from '../types';

type Smtp = Answer<'getSettings'>['smtp'];

/** The SSH login limits of the general settings, saved as sent. */
const SSH_LIMITS = [
  'ssh_handshake_timeout_seconds',
  'ssh_login_timeout_seconds',
  'ssh_max_auth_attempts',
  'ssh_max_unauthenticated_per_address',
  'ssh_max_unauthenticated',
] as const;
type AuthConfig = Answer<'getSsoConfig'>;

/** The recording signing key of the mock installation: kept with the data, as by default. */
const MOCK_SIGNING_KEY: Answer<'getSigningKey'> = {
  fingerprint: 'SHA256:mWq2+0Vt6yq8cV3kqD8pQeCJ0u9mB7aXxwS4nDk1Zs0',
  public_key:
    '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAmock0mock0mock0mock0mock0mock0mock0mock0mo=\n-----END PUBLIC KEY-----\n',
  source: 'data-folder',
  with_data: true,
  earlier_keys: [],
};

/** Fields sent replace those kept, recursively (objects merge, anything else replaces). */
function merged<T>(kept: T, sent: unknown): T {
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return (sent ?? kept) as T;
  const out: Record<string, unknown> = { ...(kept as Record<string, unknown>) };
  for (const [key, value] of Object.entries(fieldsOf(sent))) {
    if (key in out && value !== undefined) out[key] = merged(out[key], value);
  }
  return out as T;
}

function saveSmtp(kept: Smtp, sent: unknown): Smtp {
  const password = text(sent, 'password');
  const { password: _written, ...rest } = merged(kept, sent);
  return { ...rest, password_set: password ? true : kept.password_set };
}

function saveAuthConfig(kept: AuthConfig, body: unknown): AuthConfig {
  const sent = fieldsOf(body);
  const type = num(sent, 'auth_type');
  const ldapSecret = text(sent.ldap_config, 'ldap_bind_password');
  const oidcSecret = text(sent.oidc_config, 'client_secret');
  const samlKey = text(fieldsOf(sent.saml_config).sp, 'privateKey');
  const { ldap_bind_password: _ldap, ...ldap } = {
    ...merged(kept.ldap_config, sent.ldap_config),
    ldap_bind_password: '',
  };
  const { client_secret: _oidc, ...oidc } = { ...merged(kept.oidc_config, sent.oidc_config), client_secret: '' };
  const saml = merged(kept.saml_config, sent.saml_config);
  const { privateKey: _key, ...sp } = { ...saml.sp, privateKey: '' };
  return {
    ...kept,
    auth_type: type === 1 || type === 2 || type === 3 || type === 4 ? type : kept.auth_type,
    ldap_config: { ...ldap, ldap_bind_password_set: ldapSecret ? true : kept.ldap_config.ldap_bind_password_set },
    oidc_config: { ...oidc, client_secret_set: oidcSecret ? true : kept.oidc_config.client_secret_set },
    saml_config: { ...saml, sp: { ...sp, privateKey_set: samlKey ? true : kept.saml_config.sp.privateKey_set } },
  };
}

/** General settings, licence, certificate, versions and the sign-in configuration. */
export function settingsHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'getSettings', () => state.settings),
    route(context, 'saveSettings', ({ body }) => {
      const sent = fieldsOf(body);
      const days = num(sent, 'recording_retention_days');
      const idle = num(sent, 'idle_timeout_minutes');
      state.settings = {
        ...state.settings,
        allow_signup: flag(sent, 'allow_signup') ?? state.settings.allow_signup,
        recording_input_capture: flag(sent, 'recording_input_capture') ?? state.settings.recording_input_capture,
        recording_retention_days: days ?? state.settings.recording_retention_days,
        idle_timeout_minutes: idle ?? state.settings.idle_timeout_minutes,
        signin_banner: typeof sent.signin_banner === 'string' ? sent.signin_banner : state.settings.signin_banner,
        public_url: text(sent, 'public_url') ?? state.settings.public_url,
        smtp: sent.smtp === undefined ? state.settings.smtp : saveSmtp(state.settings.smtp, sent.smtp),
      };
      for (const field of SSH_LIMITS) {
        const value = num(sent, field);
        if (value !== undefined) state.settings[field] = value;
      }
      return { ...state.settings, message: 'Configuration saved.' };
    }),
    route(context, 'getLicense', () => ({ ...state.license, agents_used: state.agents.length })),
    route(context, 'saveLicense', ({ body }) => {
      required(body, 'license', 'Paste the licence text');
      throw new MockError(400, 'Mock data installs no licence: turn mock data off to install it on your server.');
    }),
    route(context, 'getIngressTls', () => state.certificate),
    route(context, 'saveIngressTls', ({ body }) => {
      const certificate = required(body, 'certificate', 'Paste the certificate chain (PEM)');
      required(body, 'private_key', 'Paste the private key (PEM)');
      if (!certificate.includes('-----BEGIN CERTIFICATE-----'))
        throw new MockError(400, 'The certificate is not PEM: it should begin with -----BEGIN CERTIFICATE-----');
      throw new MockError(400, 'Mock data installs no certificate: turn mock data off to install it on your server.');
    }),
    route(context, 'getVersions', () => versionsOf(state.agents, state.versions.desired_agent_version)),
    route(context, 'getSigningKey', () => MOCK_SIGNING_KEY),
    route(context, 'saveVersion', ({ body }) => {
      const tag = required(body, 'agent_version', 'agent_version is a version tag such as 2.0.1');
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(tag))
        throw new MockError(400, 'agent_version must be a tag such as 2.0.1 (letters, digits, . _ -)');
      state.versions = versionsOf(state.agents, tag);
      return { message: `Agents are asked for version ${tag}.`, versions: state.versions };
    }),
    route(context, 'getSsoConfig', () => state.authConfig),
    route(context, 'saveSsoConfig', ({ body }) => {
      state.authConfig = saveAuthConfig(state.authConfig, body);
      return { message: 'Sign-in configuration saved.', config: state.authConfig };
    }),
    route(context, 'testLdap', ({ body }) => {
      const host = text(body, 'ldap_host') || state.authConfig.ldap_config.ldap_host || '(no host)';
      return { ok: false, message: `Could not connect to ${host}: mock data has no directory to reach.` };
    }),
    route(context, 'testOidc', ({ body }) => {
      const url = text(body, 'well_known_url') || state.authConfig.oidc_config.well_known_url || '(no address)';
      return { ok: false, message: `Could not fetch ${url}: mock data reaches no identity provider.` };
    }),
  ];
}

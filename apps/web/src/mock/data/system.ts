import { BUILD, DEFAULT_TOKEN_MAX_AGE_SECONDS } from '@gatehouse/contracts';
import type { Prng } from '../prng';
import type { Answer, MockAgent, MockPod } from '../types';

const DAY = 86_400_000;
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** General settings as a configured installation has them (the SMTP password stored, never shown). */
export function generateSettings(): Answer<'getSettings'> {
  return {
    allow_signup: false,
    smtp: {
      host: 'smtp.acme.example',
      port: 587,
      secure: false,
      user: 'gatehouse',
      password_set: true,
      from: 'Gatehouse <gatehouse@acme.example>',
    },
    recording_input_capture: false,
    recording_retention_days: 365,
    idle_timeout_minutes: 30,
    signin_banner: 'Authorised personnel only. Sessions are recorded.',
    public_url: 'https://gatehouse.acme.example',
    ssh_handshake_timeout_seconds: 10,
    ssh_login_timeout_seconds: 60,
    ssh_max_auth_attempts: 6,
    ssh_max_unauthenticated_per_address: 10,
    ssh_max_unauthenticated: 100,
  };
}

/** Security settings: no single-use or freshness limits, the default token lifetime. */
export function generateSecurity(): Answer<'security'> {
  return {
    api_limit_single_use: false,
    api_limit_freshness: false,
    api_limit_endpoints: [],
    effectiveTokenMaxAge: DEFAULT_TOKEN_MAX_AGE_SECONDS,
  };
}

/** A valid licence for 50 agents, ten months to go. */
export function generateLicense(now: number, agents: number): Answer<'getLicense'> {
  return {
    status: 'valid',
    customer: 'Acme Corporation',
    expires: new Date(now + 300 * DAY).toISOString(),
    issued_at: new Date(now - 65 * DAY).toISOString(),
    license_id: 'LIC-2025-0042',
    max_agents: 50,
    agents_used: agents,
    development: false,
  };
}

/** The ingress certificate: a wildcard from a public CA, 70 days left. */
export function generateCertificate(rng: Prng, now: number): Answer<'getIngressTls'> {
  const fingerprint = Array.from(rng.bytes(32), (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  return {
    installed: true,
    issuer: "CN=R11, O=Let's Encrypt, C=US",
    subject: 'CN=gatehouse.acme.example',
    subject_alternative_names: ['gatehouse.acme.example', '*.gatehouse.acme.example'],
    valid_from: new Date(now - 20 * DAY).toISOString(),
    valid_to: new Date(now + 70 * DAY).toISOString(),
    days_until_expiry: 70,
    fingerprint_sha256: fingerprint,
    https_port: 8443,
  };
}

/** Versions: this build, the agents seen by version, the desired tag, no Kubernetes. */
export function versionsOf(agents: MockAgent[], desired: string | null): Answer<'getVersions'> {
  const counts = new Map<string, number>();
  for (const agent of agents) if (agent.version) counts.set(agent.version, (counts.get(agent.version) ?? 0) + 1);
  return {
    server: BUILD.version,
    console: BUILD.version,
    build_number: BUILD.buildNumber,
    agents: [...counts].map(([version, count]) => ({ version, count })).sort((a, b) => b.count - a.count),
    desired_agent_version: desired,
    kubernetes: false,
    statefulsets: [],
  };
}

/** Sign-in configuration: password sign-in (provider 1), the other providers left empty. */
export function generateAuthConfig(): Answer<'getSsoConfig'> {
  const base = 'https://gatehouse.acme.example';
  const contact = { givenName: '', emailAddress: '' };
  return {
    auth_type: 1,
    ldap_config: {
      ldap_host: '',
      ldap_bind_user: '',
      ldap_bind_password_set: false,
      ldap_base_dn: '',
      ldap_use_ssl: true,
      ldap_user_object_filter: '(&(objectClass=inetOrgPerson)(mail={email}))',
      ldap_group_object_filter: '(&(objectClass=groupOfNames)(member={dn}))',
    },
    oidc_config: { client_id: '', client_secret_set: false, scope: 'openid email profile', well_known_url: '' },
    admin_groups: [],
    saml_config: {
      strict: true,
      debug: false,
      sp: {
        entityId: `${base}/saml/metadata`,
        assertionConsumerService: { url: `${base}/saml/acs`, binding: POST },
        singleLogoutService: { url: `${base}/saml/slo`, binding: REDIRECT },
        NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
        x509cert: '',
        privateKey_set: false,
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
      contactPerson: { technical: contact, support: contact },
      organization: { name: '', displayname: '', url: '' },
    },
    callback_urls: {
      oidc_redirect_uri: `${base}/sso/oidc/callback`,
      saml_acs_url: `${base}/saml/acs`,
      saml_metadata_url: `${base}/saml/metadata`,
    },
  };
}

/** The components: all running except redis, which does not answer (one problem). */
export function generatePods(now: number, counts: { liveSessions: number; connectedAgents: number }): MockPod[] {
  const at = new Date(now).toISOString();
  const running = (name: string, detail: string): MockPod => ({ name, status: 'Running', detail, checked_at: at });
  return [
    running('api', 'Answering on port 8080; 3 ms to the database'),
    running('gateway', `SSH listener on port 2222; ${counts.liveSessions} sessions open`),
    running('database', 'PostgreSQL 16.4; 12 connections of 100'),
    running('recording-storage', '/var/lib/gatehouse/recordings writable; 182 GiB free'),
    running('agent-hub', `${counts.connectedAgents} agents connected`),
    { name: 'redis', status: 'Failed', detail: 'connect ECONNREFUSED 10.0.3.7:6379', checked_at: at },
  ];
}

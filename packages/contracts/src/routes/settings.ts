import { z } from 'zod';
import { defineRoute } from '../route.js';

/**
 * Outgoing mail. Without a host, mail is kept in the outbox (GET /api/mail/outbox), readable by
 * administrators only; it is never written to a log.
 */
export const SmtpSettings = z
  .object({
    host: z.string().trim().max(255).default(''),
    port: z.number().int().min(1).max(65535).default(587),
    secure: z.boolean().default(false).describe('TLS from the start (port 465); otherwise STARTTLS when offered'),
    user: z.string().max(255).default(''),
    password: z.string().max(1024).optional().describe('Write-only; stored encrypted'),
    password_set: z.boolean().optional().describe('Read-only: a password is stored'),
    from: z.string().trim().max(255).default('Gatehouse <gatehouse@localhost>'),
  })
  .meta({ id: 'SmtpSettings' });

/**
 * A change to the SMTP settings: only the fields sent change (no defaults, so a partial change
 * never resets the others). Changing host, port or user drops the stored password unless a new
 * one is sent in the same call: it was given for that server and that account only.
 */
export const SmtpPatch = z
  .object({
    host: z.string().trim().max(255).optional(),
    port: z.number().int().min(1).max(65535).optional(),
    secure: z.boolean().optional(),
    user: z.string().max(255).optional(),
    password: z.string().max(1024).optional().describe('Write-only; empty keeps the stored one'),
    password_set: z.boolean().optional().describe('Ignored (read-only)'),
    from: z.string().trim().max(255).optional(),
  })
  .meta({ id: 'SmtpPatch' });

/**
 * Limits on SSH gateway connections that have not authenticated yet (README, "Limits"). A stranger
 * holds these without proving anything, so they are bounded in time, in number per address and in
 * total; refused and timed-out clients are told why.
 */
export const SSH_LOGIN_LIMITS = {
  ssh_handshake_timeout_seconds: { min: 1, max: 600, default: 10 },
  ssh_login_timeout_seconds: { min: 2, max: 3600, default: 60 },
  ssh_max_auth_attempts: { min: 1, max: 100, default: 6 },
  ssh_max_unauthenticated_per_address: { min: 0, max: 100_000, default: 10 },
  ssh_max_unauthenticated: { min: 1, max: 100_000, default: 100 },
} as const;

const limit = (name: keyof typeof SSH_LOGIN_LIMITS) =>
  z.number().int().min(SSH_LOGIN_LIMITS[name].min).max(SSH_LOGIN_LIMITS[name].max);

const SshLoginLimits = {
  ssh_handshake_timeout_seconds: limit('ssh_handshake_timeout_seconds')
    .default(SSH_LOGIN_LIMITS.ssh_handshake_timeout_seconds.default)
    .describe('An SSH connection must finish its key exchange within this many seconds of connecting'),
  ssh_login_timeout_seconds: limit('ssh_login_timeout_seconds')
    .default(SSH_LOGIN_LIMITS.ssh_login_timeout_seconds.default)
    .describe('An SSH connection must authenticate within this many seconds of connecting'),
  ssh_max_auth_attempts: limit('ssh_max_auth_attempts')
    .default(SSH_LOGIN_LIMITS.ssh_max_auth_attempts.default)
    .describe('Failed authentication attempts allowed on one SSH connection before it is closed'),
  ssh_max_unauthenticated_per_address: limit('ssh_max_unauthenticated_per_address')
    .default(SSH_LOGIN_LIMITS.ssh_max_unauthenticated_per_address.default)
    .describe('SSH connections not yet authenticated from one address (IPv6: one /64); 0 sets no cap per address'),
  ssh_max_unauthenticated: limit('ssh_max_unauthenticated')
    .default(SSH_LOGIN_LIMITS.ssh_max_unauthenticated.default)
    .describe('SSH connections not yet authenticated, from all addresses together (per server instance)'),
};

/** General settings. */
export const GeneralSettings = z
  .object({
    allow_signup: z.boolean().default(false).describe('People may create their own accounts (role user)'),
    smtp: SmtpSettings.default({
      host: '',
      port: 587,
      secure: false,
      user: '',
      from: 'Gatehouse <gatehouse@localhost>',
    }),
    recording_input_capture: z.boolean().default(false).describe('Record what users type as well as what they see'),
    recording_retention_days: z.number().int().min(0).max(36_500).default(0).describe('0 keeps recordings forever'),
    idle_timeout_minutes: z.number().int().min(0).max(1440).default(0).describe('0 never ends idle gateway sessions'),
    signin_banner: z.string().max(2000).default('').describe('Shown on the sign-in screen'),
    public_url: z.string().trim().max(500).default('').describe('How people reach the console; used in emailed links'),
    ...SshLoginLimits,
  })
  .meta({ id: 'GeneralSettings' });

export const getSettings = defineRoute({
  id: 'settings.get',
  method: 'GET',
  path: '/api/settings',
  tag: 'settings',
  summary: 'General settings. The SMTP password is never answered; password_set says whether one is stored.',
  access: { kind: 'permissions', anyOf: ['manage-settings'] },
  response: GeneralSettings,
});

export const saveSettings = defineRoute({
  id: 'settings.save',
  method: 'POST',
  path: '/api/settings',
  tag: 'settings',
  summary:
    'Change general settings: only the fields sent change. An empty SMTP password keeps the stored one; changing the ' +
    'SMTP host, port or user drops it unless a new one is sent. Changing smtp or public_url (where password-reset ' +
    'mail and its links go) needs the admin role. Needs fresh authentication.',
  access: { kind: 'permissions', anyOf: ['manage-settings'] },
  fresh: true,
  errors: {
    403: 'smtp or public_url changed by someone without the admin role (nothing was saved)',
  },
  body: z.strictObject({
    allow_signup: z.boolean().optional(),
    smtp: SmtpPatch.optional(),
    recording_input_capture: z.boolean().optional(),
    recording_retention_days: z.number().int().min(0).max(36_500).optional(),
    idle_timeout_minutes: z.number().int().min(0).max(1440).optional(),
    signin_banner: z.string().max(2000).optional(),
    public_url: z
      .union([z.literal(''), z.url({ protocol: /^https?$/, error: 'public_url must be an http(s) URL' })])
      .optional(),
    ssh_handshake_timeout_seconds: limit('ssh_handshake_timeout_seconds').optional(),
    ssh_login_timeout_seconds: limit('ssh_login_timeout_seconds').optional(),
    ssh_max_auth_attempts: limit('ssh_max_auth_attempts').optional(),
    ssh_max_unauthenticated_per_address: limit('ssh_max_unauthenticated_per_address').optional(),
    ssh_max_unauthenticated: limit('ssh_max_unauthenticated').optional(),
  }),
  response: GeneralSettings.extend({ message: z.string() }),
});

export const publicSettings = defineRoute({
  id: 'settings.public',
  method: 'GET',
  path: '/api/settings/public',
  tag: 'settings',
  summary: 'What the sign-in screen needs before anyone signs in: the banner and whether sign-up is open.',
  access: { kind: 'public' },
  response: z.object({ signin_banner: z.string(), allow_signup: z.boolean() }),
});

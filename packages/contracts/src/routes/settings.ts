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

import { SSH_LOGIN_LIMITS } from '@gatehouse/contracts';
import type { GeneralSettings, GeneralSettingsBody } from '../api/general-settings';

/** Bounds the server applies to general settings (packages/contracts routes/settings.ts). */
export const GENERAL_LIMITS = {
  retentionDays: { min: 0, max: 36_500 },
  idleMinutes: { min: 0, max: 1440 },
  port: { min: 1, max: 65_535 },
  banner: 2000,
  text: 255,
  publicUrl: 500,
  sshHandshakeSeconds: SSH_LOGIN_LIMITS.ssh_handshake_timeout_seconds,
  sshLoginSeconds: SSH_LOGIN_LIMITS.ssh_login_timeout_seconds,
  sshAuthAttempts: SSH_LOGIN_LIMITS.ssh_max_auth_attempts,
  sshPerAddress: SSH_LOGIN_LIMITS.ssh_max_unauthenticated_per_address,
  sshTotal: SSH_LOGIN_LIMITS.ssh_max_unauthenticated,
} as const;

/** Form fields of the SSH login limits. */
export const SSH_LIMIT_FIELDS = [
  'sshHandshakeSeconds',
  'sshLoginSeconds',
  'sshAuthAttempts',
  'sshPerAddress',
  'sshTotal',
] as const;
export type SshLimitField = (typeof SSH_LIMIT_FIELDS)[number];

/** The general settings form as typed: numbers stay text until saved. */
export interface GeneralForm {
  allowSignup: boolean;
  recordingInputCapture: boolean;
  retentionDays: string;
  idleMinutes: string;
  signinBanner: string;
  publicUrl: string;
  smtpHost: string;
  smtpPort: string;
  smtpSecure: boolean;
  smtpUser: string;
  /** Empty keeps the stored password. */
  smtpPassword: string;
  smtpFrom: string;
  /** SSH login limits (README, "Limits"), as typed. */
  sshHandshakeSeconds: string;
  sshLoginSeconds: string;
  sshAuthAttempts: string;
  sshPerAddress: string;
  sshTotal: string;
}

/** A message id and its values, for a field that is wrong. */
export interface FieldError {
  key: string;
  values?: Record<string, number | string>;
}

/** Fields that can be wrong. */
export type GeneralField =
  | 'retentionDays'
  | 'idleMinutes'
  | 'signinBanner'
  | 'publicUrl'
  | 'smtpHost'
  | 'smtpPort'
  | 'smtpUser'
  | 'smtpFrom'
  | SshLimitField;

/** Messages of the wrong fields. */
export type GeneralErrors = Partial<Record<GeneralField, FieldError>>;

/** The form for the stored settings. */
export function toGeneralForm(settings: GeneralSettings): GeneralForm {
  return {
    allowSignup: settings.allow_signup,
    recordingInputCapture: settings.recording_input_capture,
    retentionDays: String(settings.recording_retention_days),
    idleMinutes: String(settings.idle_timeout_minutes),
    signinBanner: settings.signin_banner,
    publicUrl: settings.public_url,
    smtpHost: settings.smtp.host,
    smtpPort: String(settings.smtp.port),
    smtpSecure: settings.smtp.secure,
    smtpUser: settings.smtp.user,
    smtpPassword: '',
    smtpFrom: settings.smtp.from,
    sshHandshakeSeconds: String(settings.ssh_handshake_timeout_seconds),
    sshLoginSeconds: String(settings.ssh_login_timeout_seconds),
    sshAuthAttempts: String(settings.ssh_max_auth_attempts),
    sshPerAddress: String(settings.ssh_max_unauthenticated_per_address),
    sshTotal: String(settings.ssh_max_unauthenticated),
  };
}

function wholeNumber(text: string): number {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

function inRange(text: string, range: { min: number; max: number }): boolean {
  const value = wholeNumber(text);
  return Number.isInteger(value) && value >= range.min && value <= range.max;
}

/** True for '' or an http(s) URL, as the server accepts. */
function isHttpUrl(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Checks every field against the bounds the server applies, so mistakes show before saving. */
export function validateGeneralForm(form: GeneralForm): GeneralErrors {
  const errors: GeneralErrors = {};
  const L = GENERAL_LIMITS;
  if (!inRange(form.retentionDays, L.retentionDays))
    errors.retentionDays = { key: 'settings.general.errors.range', values: L.retentionDays };
  if (!inRange(form.idleMinutes, L.idleMinutes))
    errors.idleMinutes = { key: 'settings.general.errors.range', values: L.idleMinutes };
  if (form.signinBanner.length > L.banner)
    errors.signinBanner = { key: 'settings.general.errors.tooLong', values: { max: L.banner } };
  if (form.publicUrl.trim().length > L.publicUrl)
    errors.publicUrl = { key: 'settings.general.errors.tooLong', values: { max: L.publicUrl } };
  else if (!isHttpUrl(form.publicUrl)) errors.publicUrl = { key: 'settings.general.errors.url' };
  if (!inRange(form.smtpPort, L.port)) errors.smtpPort = { key: 'settings.general.errors.range', values: L.port };
  for (const field of ['smtpHost', 'smtpUser', 'smtpFrom'] as const) {
    if (form[field].trim().length > L.text)
      errors[field] = { key: 'settings.general.errors.tooLong', values: { max: L.text } };
  }
  for (const field of SSH_LIMIT_FIELDS) {
    const { min, max } = L[field];
    if (!inRange(form[field], { min, max }))
      errors[field] = { key: 'settings.general.errors.range', values: { min, max } };
  }
  return errors;
}

/** The body to save; call only when validateGeneralForm found nothing. An empty password keeps the stored one. */
export function toGeneralBody(form: GeneralForm): GeneralSettingsBody {
  return {
    allow_signup: form.allowSignup,
    recording_input_capture: form.recordingInputCapture,
    recording_retention_days: wholeNumber(form.retentionDays),
    idle_timeout_minutes: wholeNumber(form.idleMinutes),
    signin_banner: form.signinBanner,
    public_url: form.publicUrl.trim(),
    ssh_handshake_timeout_seconds: wholeNumber(form.sshHandshakeSeconds),
    ssh_login_timeout_seconds: wholeNumber(form.sshLoginSeconds),
    ssh_max_auth_attempts: wholeNumber(form.sshAuthAttempts),
    ssh_max_unauthenticated_per_address: wholeNumber(form.sshPerAddress),
    ssh_max_unauthenticated: wholeNumber(form.sshTotal),
    smtp: {
      host: form.smtpHost.trim(),
      port: wholeNumber(form.smtpPort),
      secure: form.smtpSecure,
      user: form.smtpUser,
      from: form.smtpFrom.trim(),
      ...(form.smtpPassword !== '' ? { password: form.smtpPassword } : {}),
    },
  };
}

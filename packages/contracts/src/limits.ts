/** Build identity shown in the footer (spec §1). */
export const BUILD = { version: '2.0.0', buildNumber: '20250930.1' } as const;

/** The copyright year is the current one and never below this (spec §9). */
export const MIN_COPYRIGHT_YEAR = 2024;

/** Minimum length of a new password (spec §5, §9). */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password accepted, so hashing cost stays bounded. */
export const MAX_PASSWORD_LENGTH = 256;
/** Longest email accepted (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/** Failed sign-ins before an account is locked, and for how long. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MINUTES = 15;
/**
 * With a directory or single sign-on as the sign-in method, a non-administrator's SSH public keys
 * work on the gateway only this many hours after their last successful sign-in through it, so an
 * account closed at the directory or identity provider stops reaching hosts within that time.
 */
export const SSO_SSH_KEY_HOURS = 12;
/** How long a sign-up's email verification link works. */
export const EMAIL_VERIFICATION_HOURS = 24;

/** Default lifetime of a session token in seconds (effectiveTokenMaxAge). */
export const DEFAULT_TOKEN_MAX_AGE_SECONDS = 12 * 60 * 60;

/** Largest JSON body the API accepts, in bytes; larger bodies get 413. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Console timings (spec §9). */
export const SNACKBAR_HIDE_MS = 6000;
export const LOGOUT_REDIRECT_MS = 500;
export const VIEW_REFRESH_MS = 120_000;
export const LICENCE_NOTICE_DELAY_MS = 5000;
export const ROUTE_TRANSITION_MS = 300;

/** Console languages (spec §1, §9); English is the default and Arabic is right to left. */
export const LANGUAGES = ['en', 'zh', 'es', 'fr', 'it', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

/** Header names that carry the session token (spec §7). */
export const TOKEN_HEADER = 'authentication-token';
export const TOKEN_HEADER_ALT = 'x-auth-token';

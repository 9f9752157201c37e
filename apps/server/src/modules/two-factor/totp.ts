import { TOTP_DIGITS, TOTP_PERIOD } from '@gatehouse/contracts';
import { Secret, TOTP } from 'otpauth';

/** The issuer shown by authenticator apps. */
const ISSUER = 'Gatehouse';

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new seed: 160 random bits (RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/**
 * The time step a code belongs to, within one step of now either way (clock drift), or undefined
 * when it matches none. The caller still has to make sure the step was not accepted before.
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return undefined;
  const delta = totpOf(secretBase32, 'x').validate({ token, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

/** Whether text looks like an app code (digits) rather than a recovery code. */
export function looksLikeTotp(code: string): boolean {
  return /^\d[\d\s]*$/.test(code.trim());
}

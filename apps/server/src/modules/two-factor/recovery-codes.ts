import { createHash, randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@gatehouse/contracts';

/** Crockford-like alphabet without look-alikes (no 0/O, 1/I/L). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** One code: 16 characters of a 31-letter alphabet (79 bits), shown as xxxx-xxxx-xxxx-xxxx. */
function newCode(): string {
  let out = '';
  while (out.length < 16) {
    for (const byte of randomBytes(32)) {
      // Rejection sampling keeps every letter equally likely.
      if (byte < 248 && out.length < 16) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out.match(/.{4}/g)?.join('-') ?? out;
}

/** A fresh set of recovery codes. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
}

/**
 * How a recovery code is stored: SHA-256 of its letters (case, spaces and dashes ignored). 79 random
 * bits need no slow hash, like the API's tokens.
 */
export function hashRecoveryCode(code: string): string {
  const letters = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`gatehouse-recovery:${letters}`).digest('hex');
}

import { z } from 'zod';

/** Digits of a TOTP code (RFC 6238, SHA-1, 30 s steps: what every authenticator app shows). */
export const TOTP_DIGITS = 6;
/** Seconds a TOTP step lasts. */
export const TOTP_PERIOD = 30;
/** How many recovery codes a user gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** Seconds a password-proven sign-in waits for its second factor. */
export const SECOND_FACTOR_SECONDS = 300;

/** The second factors Gatehouse knows. */
export const SecondFactorMethod = z.enum(['totp', 'passkey', 'recovery-code']);
export type SecondFactorMethod = z.infer<typeof SecondFactorMethod>;

/** A code typed by the user: six digits from the app, or a recovery code (xxxx-xxxx-xxxx-xxxx). */
export const SecondFactorCode = z
  .string({ error: 'code must be text' })
  .trim()
  .min(1, 'Enter the code from your authenticator app or a recovery code')
  .max(64, 'That code is too long');

/** What a browser's navigator.credentials answers, as @simplewebauthn/browser serialises it. */
export const WebAuthnCredential = z
  .looseObject({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key', { error: 'type must be public-key' }),
    response: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebAuthnCredential' });

/** A passkey answer to a challenge this server gave (challenge_id names it). */
export const PasskeyProof = z
  .strictObject({
    challenge_id: z.string({ error: 'challenge_id is required' }).min(1).max(128),
    credential: WebAuthnCredential,
  })
  .meta({ id: 'PasskeyProof' });

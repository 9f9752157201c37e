import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { SignedInUser } from './auth.js';
import { PasskeyProof, SecondFactorCode, WebAuthnCredential } from './two-factor-parts.js';

/** Options for navigator.credentials.create/get with the id of their challenge. */
export const WebAuthnOptions = z
  .object({
    challenge_id: z.string(),
    options: z.record(z.string(), z.unknown()).describe('PublicKeyCredential{Creation,Request}OptionsJSON'),
  })
  .meta({ id: 'WebAuthnOptions' });

/** A registered passkey or security key, as its owner sees it (never the key itself). */
export const PasskeyItem = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .meta({ id: 'PasskeyItem' });

/** The caller's second factors. */
export const TwoFactorStatus = z
  .object({
    totp: z.boolean().describe('An authenticator app is enrolled'),
    passkeys: z.array(PasskeyItem),
    recovery_codes_left: z.number().int(),
    required: z.boolean().describe('One of the caller’s roles requires a second factor'),
  })
  .meta({ id: 'TwoFactorStatus' });

const recoveryCodes = z
  .array(z.string())
  .describe('Shown once: each works once in place of a code. Only their hashes are kept.');

export const twoFactorStatus = defineRoute({
  id: 'two-factor.status',
  method: 'GET',
  path: '/api/user/two-factor',
  tag: 'two-factor',
  summary:
    'The caller’s second factors: authenticator app, passkeys, recovery codes left, and whether a role requires one.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'enrol',
  response: TwoFactorStatus,
});

export const startTotp = defineRoute({
  id: 'two-factor.totp.start',
  method: 'POST',
  path: '/api/user/two-factor/totp',
  tag: 'two-factor',
  summary:
    'Start enrolling an authenticator app: answers a new secret and its otpauth:// URI (for the QR code), once. ' +
    'It counts only after POST /api/user/two-factor/totp/confirm proves a code. 409 when one is enrolled already.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'enrol',
  fresh: true,
  response: z.object({ secret: z.string().describe('Base32'), otpauth_uri: z.string() }),
  errors: { 409: 'An authenticator app is enrolled already' },
});

export const confirmTotp = defineRoute({
  id: 'two-factor.totp.confirm',
  method: 'POST',
  path: '/api/user/two-factor/totp/confirm',
  tag: 'two-factor',
  summary:
    'Finish enrolling the authenticator app with a code it shows. The first factor of an account also answers recovery codes, once.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'enrol',
  body: z.strictObject({ code: SecondFactorCode }),
  response: z.object({ message: z.string(), recovery_codes: recoveryCodes.optional() }),
  errors: { 400: 'Wrong code', 409: 'No enrolment under way', 429: 'Too many wrong codes' },
});

export const removeTotp = defineRoute({
  id: 'two-factor.totp.remove',
  method: 'DELETE',
  path: '/api/user/two-factor/totp',
  tag: 'two-factor',
  summary:
    'Remove the authenticator app. Needs a fresh authorization, which itself asks for the second factor. ' +
    '409 when a role requires a second factor and it is the last one.',
  access: { kind: 'signed-in' },
  fresh: true,
  response: MessageBody,
  errors: { 409: 'The last factor of someone who must have one' },
});

export const newRecoveryCodes = defineRoute({
  id: 'two-factor.recovery-codes.renew',
  method: 'POST',
  path: '/api/user/two-factor/recovery-codes',
  tag: 'two-factor',
  summary: 'Replace the recovery codes with new ones, answered once. Needs a fresh authorization and a second factor.',
  access: { kind: 'signed-in' },
  fresh: true,
  response: z.object({ recovery_codes: recoveryCodes }),
  errors: { 409: 'No second factor enrolled' },
});

export const passkeyRegistrationOptions = defineRoute({
  id: 'two-factor.passkey.options',
  method: 'POST',
  path: '/api/user/passkeys/options',
  tag: 'two-factor',
  summary:
    'Options for navigator.credentials.create to register a passkey or security key (a challenge valid 5 minutes).',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'enrol',
  fresh: true,
  response: WebAuthnOptions,
});

export const addPasskey = defineRoute({
  id: 'two-factor.passkey.add',
  method: 'POST',
  path: '/api/user/passkeys',
  tag: 'two-factor',
  summary:
    'Register the passkey the browser created for the challenge. The first factor of an account also answers recovery codes, once.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'enrol',
  body: z.strictObject({
    challenge_id: z.string({ error: 'challenge_id is required' }).min(1).max(128),
    credential: WebAuthnCredential,
    name: z.string().trim().max(64, 'name is at most 64 characters').optional(),
  }),
  status: 201,
  response: z.object({ passkey: PasskeyItem, recovery_codes: recoveryCodes.optional() }),
  errors: { 400: 'The browser’s answer does not verify', 409: 'Registered already' },
});

export const removePasskey = defineRoute({
  id: 'two-factor.passkey.remove',
  method: 'DELETE',
  path: '/api/user/passkeys/{id}',
  tag: 'two-factor',
  summary: 'Remove one of the caller’s passkeys. Needs a fresh authorization with a second factor.',
  access: { kind: 'signed-in' },
  fresh: true,
  params: z.object({ id: z.uuid({ error: 'A passkey id is a UUID' }) }),
  response: MessageBody,
  errors: { 404: 'No such passkey of the caller', 409: 'The last factor of someone who must have one' },
});

export const secondFactorPasskeyOptions = defineRoute({
  id: 'two-factor.passkey.challenge',
  method: 'POST',
  path: '/api/auth/second-factor/options',
  tag: 'two-factor',
  summary:
    'Options for navigator.credentials.get with the caller’s own passkeys: for the second step of a sign-in, or for re-authorization.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'verify',
  response: WebAuthnOptions,
  errors: { 409: 'The caller has no passkey' },
});

export const secondFactor = defineRoute({
  id: 'auth.second-factor',
  method: 'POST',
  path: '/api/auth/second-factor',
  tag: 'two-factor',
  summary:
    'The second step of a sign-in: the token a password sign-in answered with second_factor, plus a code (app or recovery) ' +
    'or a passkey. Answers the session. Wrong codes count toward the email’s lockout; a code is accepted once.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'verify',
  body: z
    .strictObject({ code: SecondFactorCode.optional(), passkey: PasskeyProof.optional() })
    .refine((b) => (b.code === undefined) !== (b.passkey === undefined), 'Send either a code or a passkey'),
  response: z.object({ response: z.object({ user: SignedInUser }) }),
  errors: { 401: 'Wrong code or passkey', 403: 'Not a sign-in waiting for its second factor', 429: 'Locked' },
});

export const passkeySignInOptions = defineRoute({
  id: 'auth.passkey.options',
  method: 'POST',
  path: '/api/login/passkey/options',
  tag: 'two-factor',
  summary:
    'Options for navigator.credentials.get to sign in with a passkey alone (discoverable, user verification required).',
  access: { kind: 'public' },
  response: WebAuthnOptions,
  errors: { 429: 'Rate limited' },
});

export const passkeySignIn = defineRoute({
  id: 'auth.passkey.login',
  method: 'POST',
  path: '/api/login/passkey',
  tag: 'two-factor',
  summary:
    'Sign in with a passkey: the browser’s answer to a challenge of POST /api/login/passkey/options. A passkey with user ' +
    'verification proves two factors at once, so no other step follows.',
  access: { kind: 'public' },
  body: PasskeyProof,
  response: z.object({ response: z.object({ user: SignedInUser }) }),
  errors: { 401: 'The passkey does not verify or is unknown', 429: 'Rate limited' },
});

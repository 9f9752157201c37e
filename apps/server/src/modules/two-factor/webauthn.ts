import { randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { HttpError } from '../../http/errors.js';
import type { PasskeyRow, TwoFactorRepository } from './two-factor.repository.js';

/** Where the console runs: the origin browsers sign for, and its host name (the RP ID). */
export interface RelyingParty {
  origin: string;
  rpId: string;
}

/** Seconds a ceremony's challenge lives. */
const CHALLENGE_SECONDS = 300;

type Purpose = 'register' | 'verify' | 'sign-in';

const NOT_VERIFIED = 'That passkey could not be verified. Try again, or use another way to sign in.';

function transportsOf(row: PasskeyRow): AuthenticatorTransport[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? (parsed.filter((t) => typeof t === 'string') as AuthenticatorTransport[]) : [];
  } catch {
    return [];
  }
}

/** WebAuthn ceremonies (@simplewebauthn/server) with challenges kept in SQL, used up once. */
export class WebAuthn {
  constructor(private readonly repo: TwoFactorRepository) {}

  private async remember(purpose: Purpose, userId: string | null, challenge: string) {
    const id = randomBytes(24).toString('base64url');
    await this.repo.saveChallenge({
      id,
      purpose,
      userId,
      challenge,
      expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000),
    });
    return id;
  }

  private async challenge(id: string, purpose: Purpose, userId: string | null): Promise<string> {
    const row = await this.repo.takeChallenge(id, purpose, userId);
    if (!row) throw new HttpError(401, 'That passkey request expired or was used already: try again.');
    return row.challenge;
  }

  /** Options to create a passkey for the user; their existing ones are excluded. */
  async registrationOptions(user: { id: string; email: string; name: string | null }, rp: RelyingParty) {
    const existing = await this.repo.passkeys(user.id);
    const options = await generateRegistrationOptions({
      rpName: 'Gatehouse',
      rpID: rp.rpId,
      userName: user.email,
      userDisplayName: user.name ?? user.email,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      timeout: CHALLENGE_SECONDS * 1000,
    });
    const challengeId = await this.remember('register', user.id, options.challenge);
    return { challenge_id: challengeId, options: options as unknown as Record<string, unknown> };
  }

  /** Verifies a new passkey for the user and answers what to store. */
  async verifyRegistration(userId: string, rp: RelyingParty, challengeId: string, credential: unknown) {
    const expectedChallenge = await this.challenge(challengeId, 'register', userId);
    let result;
    try {
      result = await verifyRegistrationResponse({
        response: credential as RegistrationResponseJSON,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        requireUserVerification: false,
      });
    } catch {
      throw new HttpError(400, 'The browser’s answer did not verify: try adding the passkey again.');
    }
    if (!result.verified)
      throw new HttpError(400, 'The browser’s answer did not verify: try adding the passkey again.');
    const { credential: made } = result.registrationInfo;
    return {
      credentialId: made.id,
      publicKey: Buffer.from(made.publicKey).toString('base64url'),
      counter: made.counter,
      transports: JSON.stringify(made.transports ?? []),
    };
  }

  /**
   * Options to prove a passkey: the user's own (second factor, re-authorization), or any
   * discoverable one with user verification (sign-in with a passkey alone, userId null).
   */
  async authenticationOptions(rp: RelyingParty, userId: string | null) {
    const mine = userId ? await this.repo.passkeys(userId) : [];
    if (userId && mine.length === 0) throw new HttpError(409, 'You have no passkey: use your authenticator app code.');
    const options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
      userVerification: userId ? 'preferred' : 'required',
      timeout: CHALLENGE_SECONDS * 1000,
    });
    const challengeId = await this.remember(userId ? 'verify' : 'sign-in', userId, options.challenge);
    return { challenge_id: challengeId, options: options as unknown as Record<string, unknown> };
  }

  /**
   * Verifies a passkey's answer and answers its owner's id. With userId the passkey must be theirs
   * (another user's passkey proves nothing for this account); without, user verification is required.
   */
  async verifyAuthentication(
    rp: RelyingParty,
    userId: string | null,
    proof: { challenge_id: string; credential: { id: string } },
  ): Promise<string> {
    const expectedChallenge = await this.challenge(proof.challenge_id, userId ? 'verify' : 'sign-in', userId);
    const row = await this.repo.passkeyByCredential(proof.credential.id);
    if (!row || (userId !== null && row.userId !== userId)) throw new HttpError(401, NOT_VERIFIED);
    let result;
    try {
      result = await verifyAuthenticationResponse({
        response: proof.credential as unknown as AuthenticationResponseJSON,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        credential: {
          id: row.credentialId,
          publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
          counter: row.counter,
          transports: transportsOf(row),
        },
        requireUserVerification: userId === null,
      });
    } catch {
      throw new HttpError(401, NOT_VERIFIED);
    }
    if (!result.verified) throw new HttpError(401, NOT_VERIFIED);
    if (!(await this.repo.usePasskey(row.id, row.counter, result.authenticationInfo.newCounter)))
      throw new HttpError(401, NOT_VERIFIED);
    return row.userId;
  }
}

import type { SecondFactorMethod } from '@gatehouse/contracts';
import { HttpError } from '../../http/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { looksLikeTotp, newTotpSecret, totpStep, totpUri } from './totp.js';
import type { TwoFactorRepository } from './two-factor.repository.js';
import type { RelyingParty, WebAuthn } from './webauthn.js';

/** The sign-in guard a code check goes through: per-address limit, the email's lockout, failures counted. */
export interface SecretAttempts {
  /** Throws 429 while the address is over its limit or the email is locked. */
  guard(email: string, source: string): Promise<void>;
  /** Counts a wrong secret toward the email's lockout and answers the error to throw. */
  wrong(email: string, text: string, status: number): Promise<HttpError>;
  /** A right secret clears the email's failures. */
  clear(email: string): Promise<void>;
}

/** A user's second-factor state, as every authenticated call sees it. */
export interface TwoFactorState {
  totp: boolean;
  passkeys: number;
  /** A role of theirs requires a second factor. */
  required: boolean;
  /** They have at least one second factor. */
  enrolled: boolean;
}

/** What proves the second factor: a code (app or recovery) or a passkey's answer. */
export interface SecondFactorProof {
  code?: string | undefined;
  passkey?: { challenge_id: string; credential: { id: string } } | undefined;
}

const WRONG_CODE = 'That code is not right. Enter the current code from your authenticator app, or a recovery code.';
const REPLAYED_CODE = 'That code was used already. Wait for the next code your authenticator app shows.';

/** Enrolment, verification and removal of second factors (TOTP, passkeys, recovery codes). */
export class TwoFactorService {
  constructor(
    private readonly repo: TwoFactorRepository,
    private readonly box: SecretBox,
    readonly webauthn: WebAuthn,
    private readonly attempts: SecretAttempts,
  ) {}

  /** The user's second factors and whether a role requires one. */
  async state(userId: string): Promise<TwoFactorState> {
    const s = await this.repo.stateOf(userId);
    return { ...s, enrolled: s.totp || s.passkeys > 0 };
  }

  /** The ways this user can prove a second factor (recovery codes only alongside another factor). */
  async methods(userId: string): Promise<SecondFactorMethod[]> {
    const s = await this.state(userId);
    const out: SecondFactorMethod[] = [];
    if (s.totp) out.push('totp');
    if (s.passkeys > 0) out.push('passkey');
    if (s.enrolled && (await this.repo.recoveryCodesLeft(userId)) > 0) out.push('recovery-code');
    return out;
  }

  /** The caller's own factors, for My account (never a secret). */
  async status(userId: string) {
    const [s, passkeys, left] = await Promise.all([
      this.state(userId),
      this.repo.passkeys(userId),
      this.repo.recoveryCodesLeft(userId),
    ]);
    return {
      totp: s.totp,
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        created_at: p.createdAt.toISOString(),
        last_used_at: p.lastUsedAt?.toISOString() ?? null,
      })),
      recovery_codes_left: left,
      required: s.required,
    };
  }

  /** Starts enrolling an authenticator app: the seed is sealed at rest and answered this once. */
  async startTotp(user: { id: string; email: string }) {
    const secret = newTotpSecret();
    if (!(await this.repo.startTotp(user.id, this.box.seal(secret))))
      throw new HttpError(409, 'An authenticator app is set up already. Remove it first to set up another.');
    return { secret, otpauth_uri: totpUri(secret, user.email) };
  }

  /** Confirms the enrolment with a code; the account's first factor also gets recovery codes. */
  async confirmTotp(user: { id: string; email: string }, code: string, source: string) {
    const row = await this.repo.totp(user.id);
    if (!row || row.confirmedAt)
      throw new HttpError(409, 'No authenticator app is being set up: start again from My account.');
    await this.attempts.guard(user.email, source);
    const step = totpStep(this.box.open(row.secretSealed), code);
    if (step === undefined || !(await this.repo.acceptStep(user.id, step, true)))
      throw await this.attempts.wrong(user.email, WRONG_CODE, 400);
    await this.attempts.clear(user.email);
    const recovery = await this.firstFactorCodes(user.id, 'totp');
    return { message: 'Your authenticator app is set up.', ...(recovery ? { recovery_codes: recovery } : {}) };
  }

  /** Recovery codes for someone whose only factor is the one just added; undefined otherwise. */
  private async firstFactorCodes(userId: string, added: 'totp' | 'passkey'): Promise<string[] | undefined> {
    const s = await this.state(userId);
    const others = added === 'totp' ? s.passkeys : Number(s.totp) + s.passkeys - 1;
    if (others > 0 && (await this.repo.recoveryCodesLeft(userId)) > 0) return undefined;
    return this.renewCodes(userId);
  }

  /** New recovery codes, answered once; only their hashes are kept. */
  async renewCodes(userId: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.repo.replaceRecoveryCodes(userId, codes.map(hashRecoveryCode));
    return codes;
  }

  /** Recovery codes on demand: only for someone who has a factor. */
  async renewCodesOnRequest(userId: string) {
    if (!(await this.state(userId)).enrolled)
      throw new HttpError(409, 'Set up an authenticator app or a passkey first: recovery codes stand in for one.');
    return { recovery_codes: await this.renewCodes(userId) };
  }

  /** Refuses to remove the last factor of someone whose role requires one. */
  private async assertNotLast(userId: string, removing: 'totp' | 'passkey') {
    const s = await this.state(userId);
    const left = Number(s.totp) + s.passkeys - 1;
    if (s.required && left < 1)
      throw new HttpError(
        409,
        `A role of yours requires a second factor: add another one before removing this ${removing === 'totp' ? 'authenticator app' : 'passkey'}.`,
      );
    return left;
  }

  /** Removes the authenticator app (the route needs a fresh authorization with a factor). */
  async removeTotp(userId: string) {
    if (!(await this.repo.totp(userId))) throw new HttpError(404, 'No authenticator app is set up.');
    const left = await this.assertNotLast(userId, 'totp');
    await this.repo.removeTotp(userId);
    if (left < 1) await this.repo.replaceRecoveryCodes(userId, []);
    return { message: 'The authenticator app was removed.' };
  }

  /** Registers a passkey the browser created for this user's challenge. */
  async addPasskey(
    user: { id: string },
    rp: RelyingParty,
    body: { challenge_id: string; credential: unknown; name?: string | undefined },
  ) {
    const made = await this.webauthn.verifyRegistration(user.id, rp, body.challenge_id, body.credential);
    const row = await this.repo.addPasskey({
      userId: user.id,
      ...made,
      name: body.name?.trim() || 'Passkey',
    });
    if (!row) throw new HttpError(409, 'That passkey is registered already.');
    const recovery = await this.firstFactorCodes(user.id, 'passkey');
    return {
      passkey: { id: row.id, name: row.name, created_at: row.createdAt.toISOString(), last_used_at: null },
      ...(recovery ? { recovery_codes: recovery } : {}),
    };
  }

  /** Removes one of the caller's passkeys; another user's passkey is not found. */
  async removePasskey(userId: string, id: string) {
    if (!(await this.repo.passkeys(userId)).some((p) => p.id === id))
      throw new HttpError(404, 'You have no passkey with that id.');
    const left = await this.assertNotLast(userId, 'passkey');
    await this.repo.removePasskey(userId, id);
    if (left < 1) await this.repo.replaceRecoveryCodes(userId, []);
    return { message: 'The passkey was removed.' };
  }

  /**
   * Checks a second factor of this user: an app code (each time step accepted once), a recovery
   * code (used up) or a passkey of theirs. Wrong answers count toward the email's lockout like a
   * wrong password; the address limit applies. Answers the method that proved it.
   */
  async verify(
    user: { id: string; email: string },
    proof: SecondFactorProof,
    source: string,
    rp?: RelyingParty,
  ): Promise<SecondFactorMethod> {
    await this.attempts.guard(user.email, source);
    if (proof.passkey) {
      if (!rp) throw new HttpError(400, 'A passkey cannot be used here: enter a code.');
      try {
        await this.webauthn.verifyAuthentication(rp, user.id, proof.passkey);
      } catch (error) {
        if (error instanceof HttpError) throw await this.attempts.wrong(user.email, error.message, 401);
        throw error;
      }
      await this.attempts.clear(user.email);
      return 'passkey';
    }
    const code = proof.code?.trim() ?? '';
    if (looksLikeTotp(code)) {
      const row = await this.repo.totp(user.id);
      const step = row?.confirmedAt ? totpStep(this.box.open(row.secretSealed), code) : undefined;
      if (step === undefined) throw await this.attempts.wrong(user.email, WRONG_CODE, 401);
      if (!(await this.repo.acceptStep(user.id, step))) throw await this.attempts.wrong(user.email, REPLAYED_CODE, 401);
      await this.attempts.clear(user.email);
      return 'totp';
    }
    if (code.length === 0 || !(await this.repo.useRecoveryCode(user.id, hashRecoveryCode(code))))
      throw await this.attempts.wrong(user.email, WRONG_CODE, 401);
    await this.attempts.clear(user.email);
    return 'recovery-code';
  }
}

import {
  ADMIN_ROLE,
  LOCKOUT_MINUTES,
  LOCKOUT_THRESHOLD,
  MIN_PASSWORD_LENGTH,
  ONESHOT_TOKEN_SECONDS,
  SECOND_FACTOR_SECONDS,
  effectivePermissions,
} from '@gatehouse/contracts';
import { HttpError, SecondFactorError } from '../../http/errors.js';
import type { SecondFactorProof, TwoFactorService } from '../two-factor/two-factor.service.js';
import type { RelyingParty } from '../two-factor/webauthn.js';
import type { SecurityService } from '../settings/security.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { LoginGuardRepository } from './login-guard.repository.js';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords.js';
import { type Principal, toPrincipal } from './principal.js';
import { hashToken, newToken } from './tokens.js';
import type { TokensRepository } from './tokens.repository.js';

/**
 * The one answer to every refused sign-in, whatever the reason (unknown account, wrong password,
 * locked email, an unverified sign-up, a password of a non-administrator while single sign-on is
 * the method): it never says which, so it tells an attacker nothing; it says what to do in each case.
 */
export const BAD_CREDENTIALS =
  'Invalid email or password. If you have just signed up, open the link in the mail we sent you first; ' +
  'if your organisation signs in through single sign-on or a directory, use that sign-in; after ' +
  `${LOCKOUT_THRESHOLD} failed sign-ins the email is locked for ${LOCKOUT_MINUTES} minutes.`;

/** Stands in for an unknown account where a check must cost what it costs for a real one. */
const NOBODY = { id: '00000000-0000-0000-0000-000000000000', emailVerified: false };

/** Sign-in, tokens and password changes. */
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokensRepository,
    private readonly guard: LoginGuardRepository,
    private readonly security: SecurityService,
    private readonly loginRatePerMinute: number,
    /** The configured sign-in method (1 password, 2 SAML, 3 OIDC, 4 directory). */
    private readonly signInMethod: () => Promise<1 | 2 | 3 | 4> = () => Promise.resolve(1),
  ) {}

  /**
   * Refuses a sign-in attempt before any password is checked: too many from the address (429),
   * or the email locked after repeated failures (the one sign-in refusal). Password, directory and
   * gateway sign-ins alike.
   */
  async guardSignIn(email: string, source: string): Promise<void> {
    await this.limitAddress(source);
    if (await this.guard.lockedUntil(email)) throw new HttpError(401, BAD_CREDENTIALS, [BAD_CREDENTIALS]);
  }

  /**
   * Guards a check of a signed-in user's current password (password change, re-authorization):
   * the same per-address limit and email lockout as sign-in; here the user may be told it is locked.
   */
  async guardCurrentPassword(email: string, source: string): Promise<void> {
    await this.limitAddress(source);
    const locked = await this.guard.lockedUntil(email);
    if (locked) {
      const minutes = Math.max(1, Math.ceil((locked.getTime() - Date.now()) / 60_000));
      const text = `Too many wrong passwords. Try again in ${minutes} minutes.`;
      throw new HttpError(429, text, [text], { 'retry-after': String(minutes * 60) });
    }
  }

  /** A wrong current password counts toward the email's lockout like a failed sign-in. */
  async wrongCurrentPassword(email: string, text: string, status: number): Promise<HttpError> {
    const nowLocked = await this.guard.recordFailure(email, LOCKOUT_THRESHOLD, LOCKOUT_MINUTES);
    const message = nowLocked ? `Too many wrong passwords. Try again in ${LOCKOUT_MINUTES} minutes.` : text;
    return new HttpError(nowLocked ? 429 : status, message, [message]);
  }

  /** Counts one sign-in attempt from the address (passkey ceremonies too); 429 past the limit. */
  limitSignInAddress(source: string): Promise<void> {
    return this.limitAddress(source);
  }

  /** Counts one attempt from the address; too many in a minute answer 429 (sign-ins and password checks). */
  private async limitAddress(source: string): Promise<void> {
    const perAddress = await this.guard.hit(`login:addr:${source}`, 60);
    if (perAddress.count > this.loginRatePerMinute) {
      const wait = Math.max(1, 60 - Math.floor((Date.now() - perAddress.windowStart.getTime()) / 1000));
      throw new HttpError(
        429,
        `Too many sign-in attempts from your address. Try again in ${wait} seconds.`,
        [`Too many sign-in attempts from your address. Try again in ${wait} seconds.`],
        { 'retry-after': String(wait) },
      );
    }
  }

  /** Counts a failed sign-in and answers the error to throw: always the one refusal, 401. */
  async failedSignIn(email: string): Promise<HttpError> {
    await this.guard.recordFailure(email, LOCKOUT_THRESHOLD, LOCKOUT_MINUTES);
    return new HttpError(401, BAD_CREDENTIALS, [BAD_CREDENTIALS]);
  }

  /**
   * Whether a user who proved their password may use it: their email is verified, and while a
   * directory or single sign-on is the sign-in method, only administrators keep passwords
   * (break-glass). Used by the console sign-in and the SSH gateway.
   */
  async passwordAllowed(user: { id: string; emailVerified: boolean }): Promise<boolean> {
    // Both reads always happen, so the time taken does not tell which rule refused.
    const [method, roles] = await Promise.all([this.signInMethod(), this.users.rolesOf(user.id)]);
    if (!user.emailVerified) return false;
    return method === 1 || roles.some((r) => r.name === ADMIN_ROLE);
  }

  /** The configured sign-in method (1 password, 2 SAML, 3 OIDC, 4 directory). */
  method(): Promise<1 | 2 | 3 | 4> {
    return this.signInMethod();
  }

  /** A successful sign-in clears the email's failures. */
  async succeededSignIn(email: string): Promise<void> {
    await this.guard.clearFailures(email);
  }

  /** Checks the credentials and issues a token, or throws the error to answer. */
  async login(emailInput: string, password: string, source: string) {
    const email = emailInput.trim().toLowerCase();
    await this.guardSignIn(email, source);
    const user = await this.users.findByEmail(email);
    const ok = user?.passwordHash
      ? await verifyPassword(user.passwordHash, password)
      : await verifyAgainstNothing(password);
    // Asked for unknown accounts too (of nobody), so every refusal costs the same work.
    const allowed = await this.passwordAllowed(user ?? NOBODY);
    if (!user || !ok || !allowed) throw await this.failedSignIn(email);
    await this.succeededSignIn(email);
    return this.issueToken(user);
  }

  /** Second factors (issue 20); set once when the services are wired. */
  twoFactor?: TwoFactorService;

  /**
   * What a sign-in that proved the first factor answers: the session, or, for someone with a second
   * factor, a token good only for POST /api/auth/second-factor for a few minutes (kind 'mfa').
   */
  async issueToken(user: { id: string; email: string; name: string | null }) {
    const methods = this.twoFactor ? await this.twoFactor.methods(user.id) : [];
    if (methods.length === 0) return this.issueSession(user);
    const token = newToken();
    const expiresAt = new Date(Date.now() + SECOND_FACTOR_SECONDS * 1000);
    await this.tokens.insert(hashToken(token), user.id, expiresAt, 'mfa');
    return {
      authentication_token: token,
      email: user.email,
      name: user.name,
      roles: [],
      effectivePermissions: [],
      expires_at: expiresAt.toISOString(),
      second_factor: methods,
    };
  }

  /**
   * The second step of a sign-in: the pending token's user proves a factor; the pending token is
   * used up (by exactly one caller) and a session answered.
   */
  async completeSecondFactor(principal: Principal, proof: SecondFactorProof, source: string, rp: RelyingParty) {
    if (principal.tokenKind !== 'mfa' || !this.twoFactor)
      throw new HttpError(403, 'This is for finishing a sign-in with its second factor; you are signed in already.');
    await this.twoFactor.verify({ id: principal.userId, email: principal.email }, proof, source, rp);
    if (!(await this.tokens.consume(principal.tokenHash, 'mfa')))
      throw new HttpError(401, 'This sign-in was finished or expired already: sign in again.');
    return this.issueSession({ id: principal.userId, email: principal.email, name: principal.name });
  }

  /**
   * Sign-in with a passkey alone (discoverable credential, user verification required, so two
   * factors at once). Passkeys follow the password's rules: a verified email, and while a directory
   * or single sign-on is the method only administrators sign in locally.
   */
  async passkeySignIn(proof: { challenge_id: string; credential: { id: string } }, source: string, rp: RelyingParty) {
    await this.limitAddress(source);
    if (!this.twoFactor) throw new HttpError(401, 'Passkeys are not available.');
    const userId = await this.twoFactor.webauthn.verifyAuthentication(rp, null, proof);
    const user = await this.users.findById(userId);
    if (!user || !(await this.passwordAllowed(user)))
      throw new HttpError(401, 'This passkey cannot sign in here. Use the sign-in your organisation set up.');
    await this.guard.clearFailures(user.email);
    return this.issueSession(user);
  }

  /** Issues a session token for a user who has proven who they are (every factor they have). */
  async issueSession(user: { id: string; email: string; name: string | null }) {
    const { effectiveTokenMaxAge } = await this.security.get();
    const token = newToken();
    const expiresAt = new Date(Date.now() + effectiveTokenMaxAge * 1000);
    await this.tokens.insert(hashToken(token), user.id, expiresAt);
    return this.signedInUser(user, token, expiresAt);
  }

  /** What a sign-in answers: the token with the user, their roles and permissions. */
  async signedInUser(user: { id: string; email: string; name: string | null }, token: string, expiresAt: Date) {
    const roles = await this.users.rolesOf(user.id);
    return {
      authentication_token: token,
      email: user.email,
      name: user.name,
      roles,
      effectivePermissions: effectivePermissions(roles),
      expires_at: expiresAt.toISOString(),
    };
  }

  /** The caller behind a token, or undefined when the token is unknown or expired. */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (token.length < 16 || token.length > 256) return undefined;
    return this.authenticateHash(hashToken(token));
  }

  /** The caller behind a token's hash (a media ticket carries it), while the token lives. */
  async authenticateHash(tokenHash: string): Promise<Principal | undefined> {
    const found = await this.tokens.findLive(tokenHash);
    if (!found) return undefined;
    const [roles, factors] = await Promise.all([
      this.users.rolesOf(found.user.id),
      this.twoFactor?.state(found.user.id),
    ]);
    const principal = toPrincipal(found.user, roles, tokenHash, found.expiresAt, {
      kind: found.kind,
      issuedAt: found.createdAt,
    });
    principal.mustEnrol = factors !== undefined && factors.required && !factors.enrolled;
    return principal;
  }

  /**
   * The caller behind a token that holds a connection open (console socket, tunnel): only session
   * tokens. A one-shot authorization answers exactly one HTTP call, so it opens no socket (it would
   * otherwise be used without being used up, or be used up by a socket instead of the call it was for).
   */
  async authenticateConnection(
    token: string,
    /** The user the connection was opened for: when it no longer exists, the refusal says so. */
    userId?: string,
  ): Promise<{ principal: Principal } | { refused: string }> {
    const principal = await this.authenticate(token);
    if (!principal) {
      if (userId && !(await this.users.findById(userId)))
        return { refused: 'Your Gatehouse account was deleted. Ask an administrator if this is a mistake.' };
      return { refused: 'Your session has expired or was signed out. Sign in again.' };
    }
    if (principal.tokenKind !== 'session')
      return { refused: 'A one-shot authorization opens no connection: use your session token.' };
    if (principal.mustEnrol)
      return { refused: 'A role of yours requires a second factor: set one up in My account first.' };
    return { principal };
  }

  /** Told each token hash this instance revokes, so live connections it opened close at once (realtime/live-rights). */
  onRevoked: (tokenHash: string) => void = () => undefined;

  /** Revokes a token; unknown tokens are ignored. */
  async logout(token: string | undefined): Promise<void> {
    if (!token) return;
    const tokenHash = hashToken(token);
    await this.tokens.delete(tokenHash);
    this.onRevoked(tokenHash);
  }

  /**
   * Re-authorization (spec §2.6): the caller proves it is them again with their password. With
   * single-use on they get a one-shot token for one call; otherwise a new session token that
   * replaces (and revokes) the one they called with, fresh for the next few minutes.
   */
  async authorize(
    principal: Principal,
    body: { password: string } & SecondFactorProof,
    source: string,
    rp?: RelyingParty,
  ) {
    await this.guardCurrentPassword(principal.email, source);
    const user = await this.users.findByEmail(principal.email);
    if (!user?.passwordHash || !(await verifyPassword(user.passwordHash, body.password))) {
      throw await this.wrongCurrentPassword(principal.email, 'The password is not correct.', 401);
    }
    await this.guard.clearFailures(principal.email);
    // Someone with a second factor proves it too, or re-authorizing would be weaker than signing in.
    if (this.twoFactor && (await this.twoFactor.state(user.id)).enrolled) {
      if (body.code === undefined && body.passkey === undefined)
        throw new SecondFactorError('verify', 401, 'Enter the code from your authenticator app, or use your passkey.');
      await this.twoFactor.verify(user, body, source, rp);
    }
    return this.grantReauthorization(user.id, principal.tokenKind === 'session' ? principal.tokenHash : null);
  }

  /**
   * What proving oneself again gives (after a password here, or a single sign-on in the popup):
   * with single-use on a one-shot token; otherwise a new session token replacing `replaces`.
   */
  async grantReauthorization(userId: string, replaces: string | null) {
    const security = await this.security.get();
    const token = newToken();
    if (security.api_limit_single_use) {
      const expiresAt = new Date(Date.now() + ONESHOT_TOKEN_SECONDS * 1000);
      await this.tokens.insert(hashToken(token), userId, expiresAt, 'oneshot');
      return { token, kind: 'oneshot' as const, expires_at: expiresAt.toISOString() };
    }
    const expiresAt = new Date(Date.now() + security.effectiveTokenMaxAge * 1000);
    await this.tokens.insert(hashToken(token), userId, expiresAt);
    if (replaces) {
      await this.tokens.delete(replaces);
      this.onRevoked(replaces);
    }
    return { token, kind: 'session' as const, expires_at: expiresAt.toISOString() };
  }

  /** Changes the caller's password after checking the rules of spec §5, then revokes their other tokens. */
  async changePassword(
    principal: Principal,
    body: { password: string; new_password: string; new_password_confirm: string },
    source: string,
  ) {
    const errors: string[] = [];
    if (body.password.length === 0) errors.push('Your password is required in order to change this');
    if (body.new_password.length < MIN_PASSWORD_LENGTH || body.new_password_confirm.length < MIN_PASSWORD_LENGTH) {
      errors.push(`Passwords need to be at least ${MIN_PASSWORD_LENGTH} characters long`);
    }
    if (body.new_password !== body.new_password_confirm) errors.push('Passwords do not match');
    if (errors.length > 0) throw new HttpError(400, errors[0] ?? 'Invalid password', errors);
    await this.guardCurrentPassword(principal.email, source);
    const user = await this.users.findByEmail(principal.email);
    if (!user?.passwordHash || !(await verifyPassword(user.passwordHash, body.password))) {
      throw await this.wrongCurrentPassword(principal.email, 'Your current password is not correct', 400);
    }
    await this.guard.clearFailures(principal.email);
    if (body.password === body.new_password) {
      const text = 'The new password must differ from the current one';
      throw new HttpError(400, text, [text]);
    }
    await this.users.setPasswordHash(user.id, await hashPassword(body.new_password));
    await this.tokens.deleteOthers(user.id, principal.tokenHash);
    return { message: 'Your password has been changed.' };
  }
}

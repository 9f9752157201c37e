// Before ssh2 loads anywhere: its packets' padding from a pool (ssh2-padding.ts).
import './ssh2-padding.js';
import { ADMIN_ROLE, SSO_SSH_KEY_HOURS } from '@gatehouse/contracts';
import ssh2 from 'ssh2';
import type { AuthContext } from 'ssh2';
import { HttpError } from '../http/errors.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import { verifyAgainstNothing, verifyPassword } from '../modules/auth/passwords.js';
import { fingerprintOf } from '../modules/ssh-keys/public-key.js';
import type { SshKeysRepository } from '../modules/ssh-keys/ssh-keys.repository.js';
import type { UserRow, UsersRepository } from '../modules/users/users.repository.js';

/** `alice@example.com@web-01` → the user's email (or its local part) and the host. */
export function parseGatewayUsername(username: string): { user: string; host: string } | undefined {
  const at = username.lastIndexOf('@');
  if (at <= 0 || at === username.length - 1) return undefined;
  return { user: username.slice(0, at).toLowerCase(), host: username.slice(at + 1).toLowerCase() };
}

/** The outcome of one authentication attempt. */
export type AuthOutcome =
  | { ok: true; user: UserRow; method: 'password' | 'publickey' | 'password+totp' }
  | { ok: false; probe?: boolean; reason?: string }
  /** The password was right; the authenticator app's code must follow (keyboard-interactive). */
  | { ok: false; partial: UserRow };

/** The prompt of the second step, as ssh shows it. */
export const CODE_PROMPT = 'Gatehouse verification code: ';

/**
 * Checks a gateway login. Passwords and signed public-key attempts go through the console's
 * per-address limit and email lockout (AuthService.guardSignIn), and wrong passwords count toward
 * the lockout; a public key counts only once its signature verifies: a probe without a signature is
 * answered (so the client signs) but authenticates nobody. Unknown users and wrong passwords look
 * the same. Unverified sign-ups authenticate nowhere. While a directory or single sign-on is the
 * sign-in method, a non-administrator's password never works here, and their keys work only within
 * SSO_SSH_KEY_HOURS of their last successful sign-in through it (so an account closed at the
 * directory or identity provider stops reaching hosts).
 */
export class GatewayAuth {
  constructor(
    private readonly users: UsersRepository,
    private readonly keys: SshKeysRepository,
    private readonly auth: AuthService,
    private readonly findByLocalPart: (local: string) => Promise<UserRow | undefined>,
  ) {}

  /** The limits and lockout shared with the console; false when they refuse the attempt. */
  private async admitted(emailKey: string, source: string): Promise<boolean> {
    try {
      await this.auth.guardSignIn(emailKey, source);
      return true;
    } catch {
      return false;
    }
  }

  /** With SSO on, a non-administrator's key works only within SSO_SSH_KEY_HOURS of their last SSO sign-in. */
  private async keyAllowed(user: UserRow): Promise<boolean> {
    if (!user.emailVerified) return false;
    if ((await this.auth.method()) === 1) return true;
    if ((await this.users.rolesOf(user.id)).some((r) => r.name === ADMIN_ROLE)) return true;
    const last = user.lastExternalSignInAt?.getTime();
    return last !== undefined && Date.now() - last < SSO_SSH_KEY_HOURS * 3600_000;
  }

  private async resolveUser(name: string): Promise<UserRow | undefined> {
    return name.includes('@') ? this.users.findByEmail(name) : this.findByLocalPart(name);
  }

  /**
   * Issue 20: after a right password, someone with an authenticator app must type its code next;
   * someone whose only second factor is a passkey (which SSH cannot ask for), or whose role requires
   * a second factor not set up yet, is refused here (a registered SSH key still works).
   */
  private async afterPassword(user: UserRow): Promise<AuthOutcome> {
    const factors = await this.auth.twoFactor?.state(user.id);
    if (!factors || (!factors.enrolled && !factors.required)) return { ok: true, user, method: 'password' };
    if (factors.totp) return { ok: false, partial: user };
    return {
      ok: false,
      reason: factors.enrolled ? 'second factor is a passkey only' : 'second factor required, none set up',
    };
  }

  /**
   * The second step after a right password: the code typed at the keyboard-interactive prompt, checked
   * like the console's (each code once; wrong codes count toward the email's lockout).
   */
  async checkCode(user: UserRow, code: string, source: string): Promise<AuthOutcome> {
    const twoFactor = this.auth.twoFactor;
    if (!twoFactor) return { ok: false };
    try {
      await twoFactor.verify(user, { code }, source);
      return { ok: true, user, method: 'password+totp' };
    } catch (error) {
      if (error instanceof HttpError) return { ok: false, reason: 'wrong second factor' };
      throw error;
    }
  }

  /** Decides one authentication request. */
  async check(ctx: AuthContext, name: string, source: string): Promise<AuthOutcome> {
    if (ctx.method === 'password') {
      const user = await this.resolveUser(name);
      const emailKey = user?.email ?? name;
      if (!(await this.admitted(emailKey, source))) return { ok: false };
      const good = user?.passwordHash
        ? await verifyPassword(user.passwordHash, ctx.password)
        : await verifyAgainstNothing(ctx.password);
      if (!user || !good || !(await this.auth.passwordAllowed(user))) {
        await this.auth.failedSignIn(emailKey);
        return { ok: false };
      }
      await this.auth.succeededSignIn(emailKey);
      return this.afterPassword(user);
    }
    if (ctx.method === 'publickey') {
      const user = await this.resolveUser(name);
      if (!user) return { ok: false };
      const fingerprint = fingerprintOf(ctx.key.data);
      const registered = (await this.keys.listFor(user.id)).find((k) => k.fingerprint === fingerprint);
      if (!registered) return { ok: false };
      if (!ctx.signature || !ctx.blob) return { ok: false, probe: true };
      if (!(await this.admitted(user.email, source))) return { ok: false };
      const key = ssh2.utils.parseKey(ctx.key.data);
      if (key instanceof Error || !key.verify(ctx.blob, ctx.signature, ctx.hashAlgo)) return { ok: false };
      if (!(await this.keyAllowed(user))) return { ok: false };
      await this.keys.touch(registered.id);
      return { ok: true, user, method: 'publickey' };
    }
    return { ok: false };
  }
}

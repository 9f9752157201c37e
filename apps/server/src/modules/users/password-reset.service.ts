import { EMAIL_VERIFICATION_HOURS, USER_ROLE } from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { AuthService } from '../auth/auth.service.js';
import type { LoginGuardRepository } from '../auth/login-guard.repository.js';
import { hashPassword } from '../auth/passwords.js';
import { hashToken, newToken } from '../auth/tokens.js';
import type { TokensRepository } from '../auth/tokens.repository.js';
import type { MailService } from '../mail/mail.service.js';
import type { Principal } from '../auth/principal.js';
import type { GrantGuards } from '../policy/grant-guards.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { EmailVerificationsRepository } from './email-verifications.repository.js';
import type { ResetTokensRepository } from './reset-tokens.repository.js';
import type { UsersRepository } from './users.repository.js';
import type { UsersService } from './users.service.js';

const RESET_LIFETIME_MS = 60 * 60 * 1000;
const INVALID_LINK = 'This reset link is invalid, already used or expired. Ask for a new one.';
const INVALID_VERIFICATION =
  'This verification link is invalid, already used or expired. Sign in if you opened it before; otherwise ' +
  `sign up again after ${EMAIL_VERIFICATION_HOURS} hours, or ask for a password reset, which verifies the email too.`;

/** Password resets (by an administrator or forgotten) and self sign-up. */
export class PasswordResetService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      usersService: UsersService;
      resetTokens: ResetTokensRepository;
      /** The policy's grant guards: who may reset whose password. */
      grants: GrantGuards;
      verifications: EmailVerificationsRepository;
      tokens: TokensRepository;
      guard: LoginGuardRepository;
      settings: SettingsService;
      mail: MailService;
      auth: AuthService;
      defaultPublicUrl: string;
      ratePerMinute: number;
      log: Pick<FastifyBaseLogger, 'error'>;
    },
  ) {}

  private async publicBase(): Promise<string> {
    const base = (await this.deps.settings.get()).public_url || this.deps.defaultPublicUrl;
    return base.replace(/\/+$/, '');
  }

  private async sendLink(user: { id: string; email: string }, why: string) {
    const token = newToken();
    await this.deps.resetTokens.insert(hashToken(token), user.id, new Date(Date.now() + RESET_LIFETIME_MS));
    const base = (await this.deps.settings.get()).public_url || this.deps.defaultPublicUrl;
    const link = `${base.replace(/\/+$/, '')}/#/reset-password?token=${token}`;
    await this.deps.mail.send({
      to: user.email,
      subject: 'Reset your Gatehouse password',
      text: `${why}\n\nOpen this link within one hour to choose a new password:\n${link}\n\nThe link works once. If you did not expect this message, you can ignore it.`,
    });
  }

  /** A holder of modify-user sends another user a reset link, when the policy lets them act on that account. */
  async resetOther(principal: Principal, email: string) {
    const user = await this.deps.users.findByEmail(email);
    if (!user) throw new HttpError(404, `No user has the email ${email}.`);
    await this.deps.grants.mayActOnAccount(principal, user);
    try {
      await this.sendLink(user, 'An administrator asked Gatehouse to reset your password.');
    } catch (error) {
      throw new HttpError(503, (error as Error).message);
    }
    return { message: `Password reset email sent to ${email}.` };
  }

  /** Anyone asks for a link; the answer and its timing are the same whether or not the account exists. */
  async forgot(email: string, source: string) {
    const answer = { message: `Check your email at ${email} for information about how to reset your password.` };
    const perAddress = await this.deps.guard.hit(`forgot:addr:${source}`, 60);
    if (perAddress.count > this.deps.ratePerMinute) {
      throw new HttpError(429, 'Too many reset requests from your address. Try again in a minute.');
    }
    // At most three links per email per quarter hour, silently, so nobody floods a mailbox.
    const perEmail = await this.deps.guard.hit(`forgot:email:${email}`, 900);
    const user = await this.deps.users.findByEmail(email);
    if (user && perEmail.count <= 3) {
      // Not awaited: sending takes time only for real accounts, which would tell them apart.
      this.sendLink(user, 'Someone (hopefully you) asked to reset your Gatehouse password.').catch((error: unknown) =>
        this.deps.log.error({ err: error }, 'reset link could not be sent'),
      );
    }
    return answer;
  }

  /** Sets a new password with a reset token; ends every session of the user. */
  async reset(token: string, password: string, confirm: string) {
    if (password !== confirm) throw new HttpError(400, 'Passwords do not match', ['Passwords do not match']);
    const userId = await this.deps.resetTokens.consume(hashToken(token));
    if (!userId) throw new HttpError(400, INVALID_LINK, [INVALID_LINK]);
    await this.deps.users.setPasswordHash(userId, await hashPassword(password));
    // The link came by mail, so it proves the mailbox as a verification link would.
    await this.deps.verifications.markVerified(userId);
    await this.deps.tokens.deleteAllOf(userId);
    const user = await this.deps.users.findById(userId);
    if (user) await this.deps.guard.clearFailures(user.email);
    return { message: 'The new Password has been successfully set' };
  }

  /**
   * Self sign-up, when the general settings allow it. The account is made unverified and signs in
   * nowhere (console, gateway, single sign-on attach) until the one-time link mailed to the address
   * is opened. An unverified account whose link has expired gives way to a new sign-up, so nobody
   * can hold another person's address by signing up with it.
   */
  async signUp(input: { email: string; name: string; password: string }) {
    if (!(await this.deps.settings.get()).allow_signup) {
      throw new HttpError(403, 'Sign-up is turned off here. Ask an administrator for an account.');
    }
    if ((await this.deps.auth.method()) !== 1) {
      // A password account could not sign in anyway; the provider creates the account on first sign-in.
      throw new HttpError(
        403,
        'This organisation signs in through single sign-on or a directory: use that sign-in on the sign-in ' +
          'screen, and your account is created the first time.',
      );
    }
    const email = input.email.trim().toLowerCase();
    const lifetime = EMAIL_VERIFICATION_HOURS * 3600_000;
    await this.deps.verifications.deleteStaleUnverified(email, new Date(Date.now() - lifetime));
    let user: { id: string; email: string };
    try {
      user = await this.deps.users.create(
        { email, name: input.name, passwordHash: await hashPassword(input.password), emailVerified: false },
        [USER_ROLE],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'The entered Email address is already registered!');
      throw error;
    }
    const token = newToken();
    await this.deps.verifications.insert(hashToken(token), user.id, new Date(Date.now() + lifetime));
    const link = `${await this.publicBase()}/#/verify-email?token=${token}`;
    try {
      await this.deps.mail.send({
        to: user.email,
        subject: 'Confirm your Gatehouse sign-up',
        text:
          `Someone (hopefully you) signed up for Gatehouse with this address.\n\n` +
          `Open this link within ${EMAIL_VERIFICATION_HOURS} hours to confirm it; until then the account cannot sign in:\n${link}\n\n` +
          'The link works once. If you did not sign up, do not open it: ignore this message and the account ' +
          'will give way to a new sign-up once the link expires.',
      });
    } catch (error) {
      this.deps.log.error({ err: error }, 'the sign-up verification mail could not be sent');
      throw new HttpError(
        503,
        'Your account was created but the confirmation mail could not be sent. Ask an administrator to check the ' +
          'mail settings, then use "Forgot password" to receive a link that confirms your address.',
      );
    }
    return {
      message: `Check your email at ${user.email}: open the link we sent to confirm your address, then sign in.`,
      email: user.email,
    };
  }

  /** Opens a sign-up's verification link (once); then the account can sign in. */
  async verifyEmail(token: string) {
    const userId = await this.deps.verifications.consume(hashToken(token));
    if (!userId) throw new HttpError(400, INVALID_VERIFICATION, [INVALID_VERIFICATION]);
    const user = await this.deps.users.findById(userId);
    if (user) await this.deps.guard.clearFailures(user.email);
    return { message: 'Your email address is confirmed. You can now sign in.' };
  }
}

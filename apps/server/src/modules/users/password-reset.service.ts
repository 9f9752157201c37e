import { USER_ROLE } from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { AuthService } from '../auth/auth.service.js';
import type { LoginGuardRepository } from '../auth/login-guard.repository.js';
import { hashPassword } from '../auth/passwords.js';
import { hashToken, newToken } from '../auth/tokens.js';
import type { TokensRepository } from '../auth/tokens.repository.js';
import type { MailService } from '../mail/mail.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ResetTokensRepository } from './reset-tokens.repository.js';
import type { UsersRepository } from './users.repository.js';
import type { UsersService } from './users.service.js';

const RESET_LIFETIME_MS = 60 * 60 * 1000;
const INVALID_LINK = 'This reset link is invalid, already used or expired. Ask for a new one.';

/** Password resets (by an administrator or forgotten) and self sign-up. */
export class PasswordResetService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      usersService: UsersService;
      resetTokens: ResetTokensRepository;
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

  /** An administrator sends another user a reset link. */
  async resetOther(email: string) {
    const user = await this.deps.users.findByEmail(email);
    if (!user) throw new HttpError(404, `No user has the email ${email}.`);
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
    await this.deps.tokens.deleteAllOf(userId);
    const user = await this.deps.users.findById(userId);
    if (user) await this.deps.guard.clearFailures(user.email);
    return { message: 'The new Password has been successfully set' };
  }

  /** Self sign-up, when the general settings allow it. */
  async signUp(input: { email: string; name: string; password: string }) {
    if (!(await this.deps.settings.get()).allow_signup) {
      throw new HttpError(403, 'Sign-up is turned off here. Ask an administrator for an account.');
    }
    try {
      const user = await this.deps.usersService.create(input, [USER_ROLE]);
      const signedIn = await this.deps.auth.issueToken(user);
      return { token: signedIn.authentication_token, response: { user: signedIn } };
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'The entered Email address is already registered!');
      throw error;
    }
  }
}

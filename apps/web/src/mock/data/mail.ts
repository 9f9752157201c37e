import { base64, type Prng } from '../prng';
import type { MockOutboxMessage, MockUser } from '../types';

const MINUTE = 60_000;

/** What a kept message needs: who sent it, to whom, when, and the link the server would put in it. */
interface MailParts {
  id: string;
  from: string;
  to: string;
  at: number;
  /** The console's address, such as https://gatehouse.acme.example. */
  publicUrl: string;
  /** The one-time token of the link. */
  token: string;
}

/** A one-time token as the server writes them (URL-safe base64 of 32 random bytes). */
export function mailToken(rng: Prng): string {
  return base64(rng.bytes(32)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A password-reset message, worded as the server words it. */
export function resetMail(parts: MailParts, why: string): MockOutboxMessage {
  const link = `${parts.publicUrl.replace(/\/+$/, '')}/#/reset-password?token=${parts.token}`;
  return {
    id: parts.id,
    created_at: new Date(parts.at).toISOString(),
    from: parts.from,
    to: parts.to,
    subject: 'Reset your Gatehouse password',
    text: `${why}\n\nOpen this link within one hour to choose a new password:\n${link}\n\nThe link works once. If you did not expect this message, you can ignore it.`,
  };
}

/** A sign-up confirmation message, worded as the server words it. */
function signUpMail(parts: MailParts): MockOutboxMessage {
  const link = `${parts.publicUrl.replace(/\/+$/, '')}/#/verify-email?token=${parts.token}`;
  return {
    id: parts.id,
    created_at: new Date(parts.at).toISOString(),
    from: parts.from,
    to: parts.to,
    subject: 'Confirm your Gatehouse sign-up',
    text:
      `Someone (hopefully you) signed up for Gatehouse with this address.\n\n` +
      `Open this link within 24 hours to confirm it; until then the account cannot sign in:\n${link}\n\n` +
      'The link works once. If you did not sign up, do not open it: ignore this message and the account ' +
      'will give way to a new sign-up once the link expires.',
  };
}

/**
 * The outbox, newest first: mail kept before an SMTP server was set (two password resets and a
 * sign-up confirmation).
 */
export function generateOutbox(
  rng: Prng,
  users: MockUser[],
  now: number,
  sender: { from: string; publicUrl: string },
): MockOutboxMessage[] {
  const to = (index: number) => users[index % users.length]?.email ?? 'someone@acme.example';
  const parts = (minutesAgo: number, recipient: string): MailParts => ({
    id: rng.uuid(),
    from: sender.from,
    to: recipient,
    at: now - minutesAgo * MINUTE,
    publicUrl: sender.publicUrl,
    token: mailToken(rng),
  });
  return [
    resetMail(parts(42, to(7)), 'Someone asked Gatehouse to reset the password of this account.'),
    signUpMail(parts(60 * 26, 'new.contractor@partner.example')),
    resetMail(parts(60 * 24 * 3, to(12)), 'An administrator asked Gatehouse to reset your password.'),
  ];
}

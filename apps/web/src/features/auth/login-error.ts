import type { ErrorBody } from '@gatehouse/contracts';

/**
 * The sign-in error to show (spec §5, §8): the first server error mentioning the email, else the
 * first mentioning the password, else the message. Matching ignores case, so 'Email …' counts.
 */
export function pickLoginError(body: ErrorBody | null, fallback: string): string {
  const errors = body?.response?.errors ?? body?.errors ?? [];
  const mentioning = (word: string) => errors.find((text) => text.toLowerCase().includes(word));
  return mentioning('email') ?? mentioning('password') ?? (body?.message || fallback);
}

import { describe, expect, it } from 'vitest';
import { pickLoginError } from './login-error';

const body = (errors: string[], message = 'Unauthorized') => ({
  statusCode: 401,
  error: 'Unauthorized',
  message,
  response: { errors },
});

describe('pickLoginError (spec §5, §8)', () => {
  it('prefers the first error mentioning the email', () => {
    expect(pickLoginError(body(['Invalid password', 'Specified user does not exist: email']), 'x')).toBe(
      'Specified user does not exist: email',
    );
  });

  it('uses the password error when none mentions the email', () => {
    expect(pickLoginError(body(['Too short', 'Invalid password']), 'x')).toBe('Invalid password');
  });

  it('falls back to the message, then to the given text', () => {
    expect(pickLoginError(body(['Locked']), 'x')).toBe('Unauthorized');
    expect(pickLoginError(null, 'Something went wrong')).toBe('Something went wrong');
  });
});

import { describe, expect, it } from 'vitest';
import { validateNewUser } from './validation';

const valid = { email: 'new.person@example.test', name: '', password: 'long-enough-1', confirm: 'long-enough-1' };

describe('validateNewUser', () => {
  it('accepts a well-formed email with a matching password and no name', () => {
    expect(validateNewUser(valid)).toEqual({});
  });

  it('asks for the email and rejects a malformed one', () => {
    expect(validateNewUser({ ...valid, email: ' ' }).email).toBe('validation.emailRequired');
    expect(validateNewUser({ ...valid, email: 'not-an-email' }).email).toBe('validation.emailFormat');
  });

  it('needs 8 characters and an identical confirmation', () => {
    expect(validateNewUser({ ...valid, password: 'short', confirm: 'short' })).toEqual({
      password: 'changePassword.tooShort',
      confirm: 'changePassword.tooShort',
    });
    expect(validateNewUser({ ...valid, confirm: 'long-enough-2' }).confirm).toBe('changePassword.mismatch');
  });
});

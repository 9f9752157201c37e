import { describe, expect, it } from 'vitest';
import { canChangePassword, validateChangePassword, validateSignIn, validateSignUp } from './validation';

describe('validateSignIn', () => {
  it('requires email and password', () => {
    expect(validateSignIn({ email: '', password: '' })).toEqual({
      email: 'validation.emailRequired',
      password: 'validation.passwordRequired',
    });
  });

  it('rejects a malformed email and accepts single-label domains', () => {
    expect(validateSignIn({ email: 'not-an-email', password: 'x' }).email).toBe('validation.emailFormat');
    expect(validateSignIn({ email: 'admin@localhost', password: 'x' })).toEqual({});
  });
});

describe('validateChangePassword', () => {
  const valid = { password: 'old-secret', newPassword: 'new-secret-1', newPasswordConfirm: 'new-secret-1' };

  it('accepts a complete, matching form', () => {
    expect(canChangePassword(valid)).toBe(true);
  });

  it('needs the current password', () => {
    expect(validateChangePassword({ ...valid, password: '' }).password).toBe('changePassword.currentRequired');
  });

  it('needs 8 characters and matching entries', () => {
    expect(validateChangePassword({ ...valid, newPassword: 'short' }).newPassword).toBe('changePassword.tooShort');
    expect(validateChangePassword({ ...valid, newPasswordConfirm: 'new-secret-2' }).newPasswordConfirm).toBe(
      'changePassword.mismatch',
    );
    expect(canChangePassword({ ...valid, newPasswordConfirm: 'new-secret-2' })).toBe(false);
  });
});

describe('validateSignUp', () => {
  const valid = { email: 'new@example.test', name: 'New Person', password: 'long-enough-1' };

  it('accepts a complete form', () => {
    expect(validateSignUp(valid)).toEqual({});
  });

  it('needs a well-formed email, a name and 8 characters of password', () => {
    expect(validateSignUp({ email: 'nope', name: ' ', password: 'short' })).toEqual({
      email: 'validation.emailFormat',
      name: 'authFlows.signUp.nameRequired',
      password: 'changePassword.tooShort',
    });
  });
});

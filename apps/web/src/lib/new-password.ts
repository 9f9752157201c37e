import { MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';

/** Message ids of a new password and its confirmation (spec §5). */
export interface NewPasswordErrors {
  password?: 'changePassword.tooShort';
  confirm?: 'changePassword.tooShort' | 'changePassword.mismatch';
}

/** A new password needs 8 characters and an identical confirmation (spec §5). */
export function validateNewPassword(password: string, confirm: string): NewPasswordErrors {
  const errors: NewPasswordErrors = {};
  if (password.length < MIN_PASSWORD_LENGTH) errors.password = 'changePassword.tooShort';
  if (confirm.length < MIN_PASSWORD_LENGTH) errors.confirm = 'changePassword.tooShort';
  else if (confirm !== password) errors.confirm = 'changePassword.mismatch';
  return errors;
}

import { MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';
import { isValidEmail } from '../../lib/email';

/** Message ids of the sign-in form's field errors (spec §5 generic messages). */
export interface SignInErrors {
  email?: 'validation.emailRequired' | 'validation.emailFormat';
  password?: 'validation.passwordRequired';
}

/** Validates the sign-in form: email required and well formed, password required. */
export function validateSignIn(values: { email: string; password: string }): SignInErrors {
  const errors: SignInErrors = {};
  const email = values.email.trim();
  if (email === '') errors.email = 'validation.emailRequired';
  else if (!isValidEmail(email)) errors.email = 'validation.emailFormat';
  if (values.password === '') errors.password = 'validation.passwordRequired';
  return errors;
}

/** The change-password form (spec §3). */
export interface ChangePasswordForm {
  password: string;
  newPassword: string;
  newPasswordConfirm: string;
}

/** Message ids of the change-password field errors (spec §5). */
export interface ChangePasswordErrors {
  password?: 'changePassword.currentRequired';
  newPassword?: 'changePassword.tooShort';
  newPasswordConfirm?: 'changePassword.tooShort' | 'changePassword.mismatch';
}

/** Validates the change-password form: current required, both new ≥ 8 and identical. */
export function validateChangePassword(form: ChangePasswordForm): ChangePasswordErrors {
  const errors: ChangePasswordErrors = {};
  if (form.password === '') errors.password = 'changePassword.currentRequired';
  if (form.newPassword.length < MIN_PASSWORD_LENGTH) errors.newPassword = 'changePassword.tooShort';
  if (form.newPasswordConfirm.length < MIN_PASSWORD_LENGTH) errors.newPasswordConfirm = 'changePassword.tooShort';
  else if (form.newPasswordConfirm !== form.newPassword) errors.newPasswordConfirm = 'changePassword.mismatch';
  return errors;
}

/** Save is enabled only when all three are filled, long enough and the new ones match. */
export function canChangePassword(form: ChangePasswordForm): boolean {
  return Object.keys(validateChangePassword(form)).length === 0;
}

/** The sign-up form (spec §3 sign-up body). */
export interface SignUpForm {
  email: string;
  name: string;
  password: string;
}

/** Message ids of the sign-up field errors. */
export interface SignUpErrors {
  email?: 'validation.emailRequired' | 'validation.emailFormat';
  name?: 'authFlows.signUp.nameRequired';
  password?: 'changePassword.tooShort';
}

/** Validates the sign-up form: a well-formed email, a name and a password of 8 characters. */
export function validateSignUp(form: SignUpForm): SignUpErrors {
  const errors: SignUpErrors = {};
  const email = form.email.trim();
  if (email === '') errors.email = 'validation.emailRequired';
  else if (!isValidEmail(email)) errors.email = 'validation.emailFormat';
  if (form.name.trim() === '') errors.name = 'authFlows.signUp.nameRequired';
  if (form.password.length < MIN_PASSWORD_LENGTH) errors.password = 'changePassword.tooShort';
  return errors;
}

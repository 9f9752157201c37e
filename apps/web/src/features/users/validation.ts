import { isValidEmail } from '../../lib/email';
import type { NewPasswordErrors } from '../../lib/new-password';
import { validateNewPassword } from '../../lib/new-password';

/** The add-user form. */
export interface NewUserForm {
  email: string;
  name: string;
  password: string;
  confirm: string;
}

/** Message ids of the add-user field errors. */
export interface NewUserErrors extends NewPasswordErrors {
  email?: 'validation.emailRequired' | 'validation.emailFormat';
}

/** Validates the add-user form: a well-formed email and a new password with its confirmation. */
export function validateNewUser(form: NewUserForm): NewUserErrors {
  const errors: NewUserErrors = validateNewPassword(form.password, form.confirm);
  const email = form.email.trim();
  if (email === '') errors.email = 'validation.emailRequired';
  else if (!isValidEmail(email)) errors.email = 'validation.emailFormat';
  return errors;
}

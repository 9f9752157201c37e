import type { Feature } from '../../lib/feature';
import { ConfirmSignUpPage } from './components/account-pages';
import { ForgetPasswordPage } from './components/forget-password-page';
import { ResetPasswordPage } from './components/reset-password-page';
import { SignInPage } from './components/sign-in-page';
import { SignOutPage } from './components/sign-out-page';
import { SignUpPage } from './components/sign-up-page';
import { VerifyEmailPage } from './components/verify-email-page';

/** Sign-in, sign-out, sign-up and the password-reset screens (spec §2.1). */
export const authFeature: Feature = {
  id: 'auth',
  routes: [
    { path: 'signin', Component: SignInPage, access: 'guest' },
    { path: 'signup', Component: SignUpPage, access: 'guest' },
    { path: 'signout', Component: SignOutPage, access: 'signout' },
    { path: 'confirm-signup', Component: ConfirmSignUpPage, access: 'public' },
    { path: 'verify-email', Component: VerifyEmailPage, access: 'public' },
    { path: 'forget-password', Component: ForgetPasswordPage, access: 'public' },
    { path: 'reset-password', Component: ResetPasswordPage, access: 'public' },
  ],
};

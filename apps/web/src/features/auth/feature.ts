import type { Feature } from '../../lib/feature';
import { ConfirmSignUpPage, ForgetPasswordPage, ResetPasswordPage, SignUpPage } from './components/account-pages';
import { SignInPage } from './components/sign-in-page';
import { SignOutPage } from './components/sign-out-page';

/** Sign-in, sign-out and the account screens (spec §2.1). */
export const authFeature: Feature = {
  id: 'auth',
  routes: [
    { path: 'signin', Component: SignInPage, access: 'guest' },
    { path: 'signup', Component: SignUpPage, access: 'guest' },
    { path: 'signout', Component: SignOutPage, access: 'signout' },
    { path: 'confirm-signup', Component: ConfirmSignUpPage, access: 'public' },
    { path: 'forget-password', Component: ForgetPasswordPage, access: 'public' },
    { path: 'reset-password', Component: ResetPasswordPage, access: 'public' },
  ],
};

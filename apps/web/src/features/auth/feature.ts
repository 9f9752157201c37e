import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';
import { loadForgetPasswordPage, loadSignUpPage } from './components/preload-linked-screens';
import { SignInPage } from './components/sign-in-page';
import { SignOutPage } from './components/sign-out-page';

// Sign-in (the first screen of a signed-out visitor) and sign-out come with the console; the
// screens a link in an email or a click from sign-in opens load on their first visit.
const SignUpPage = lazyPage(loadSignUpPage, 'SignUpPage');
const ConfirmSignUpPage = lazyPage(() => import('./components/account-pages'), 'ConfirmSignUpPage');
const VerifyEmailPage = lazyPage(() => import('./components/verify-email-page'), 'VerifyEmailPage');
const ForgetPasswordPage = lazyPage(loadForgetPasswordPage, 'ForgetPasswordPage');
const ResetPasswordPage = lazyPage(() => import('./components/reset-password-page'), 'ResetPasswordPage');

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

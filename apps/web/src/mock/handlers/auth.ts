import { MockError, type MockContext, type NamedHandler, mockToken, route } from '../http';
import { fieldsOf, flag, num, required, text } from '../body';
import type { MockState } from '../types';
import { checkNewPassword, ensureCaller, roleSummaries, signedIn, userAt } from './people';

/** Any email with any password signs in (as an administrator): the mock has no accounts to check. */
function signIn(state: MockState, body: unknown) {
  const email = text(body, 'email');
  const password = fieldsOf(body).password;
  const problems = [
    ...(email ? [] : ['Email is required']),
    ...(typeof password === 'string' && password !== '' ? [] : ['Password is required']),
  ];
  if (!email || problems.length > 0)
    throw new MockError(400, problems.join('. '), { errors: problems, response: { errors: problems } });
  return { response: { user: signedIn(state, ensureCaller(state, email)) } };
}

/** Sign-in, session, re-authorization and the sign-in configuration. */
export function authHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'login', ({ body }) => signIn(state, body)),
    route(context, 'ldapLogin', ({ body }) => signIn(state, body)),
    route(context, 'logout', () => ({ message: 'Signed out' })),
    route(context, 'me', ({ caller }) => {
      const user = ensureCaller(state, caller ?? '');
      const roles = roleSummaries(state, user);
      return {
        user: {
          email: user.email,
          name: user.name,
          roles,
          effectivePermissions: signedIn(state, user).effectivePermissions,
        },
      };
    }),
    route(context, 'changePassword', ({ body }) => {
      if (!text(body, 'password')) throw new MockError(400, 'Your password is required in order to change this');
      checkNewPassword(text(body, 'new_password'), text(body, 'new_password_confirm'));
      return { message: 'Your password has been changed.' };
    }),
    route(context, 'security', () => state.security),
    route(context, 'saveSecurity', ({ body }) => {
      const age = num(body, 'effectiveTokenMaxAge');
      if (age !== undefined && (age < 300 || age > 30 * 86_400))
        throw new MockError(400, 'effectiveTokenMaxAge must be from 300 seconds to 30 days');
      const endpoints = fieldsOf(body).api_limit_endpoints;
      state.security = {
        api_limit_single_use: flag(body, 'api_limit_single_use') ?? state.security.api_limit_single_use,
        api_limit_freshness: flag(body, 'api_limit_freshness') ?? state.security.api_limit_freshness,
        api_limit_endpoints: Array.isArray(endpoints)
          ? endpoints.map((entry) => ({
              method: (text(entry, 'method') ?? '*').toUpperCase(),
              path: text(entry, 'path') ?? '',
            }))
          : state.security.api_limit_endpoints,
        effectiveTokenMaxAge: age ?? state.security.effectiveTokenMaxAge,
      };
      return { message: 'Security settings saved.', security: state.security };
    }),
    route(context, 'authorize', ({ body, caller }) => {
      required(body, 'password', 'Enter your password');
      const oneshot = state.security.api_limit_single_use;
      const seconds = oneshot ? 120 : state.security.effectiveTokenMaxAge;
      return {
        token: mockToken(userAt(state, caller ?? '').email, oneshot ? 'oneshot' : 'session'),
        kind: oneshot ? ('oneshot' as const) : ('session' as const),
        expires_at: new Date(Date.now() + seconds * 1000).toISOString(),
      };
    }),
    route(context, 'ssoProvider', () => ({ auth_type: state.authConfig.auth_type })),
    route(context, 'startSso', () => {
      throw new MockError(400, 'Single sign-on is not available with mock data: sign in with any email and password.');
    }),
    route(context, 'ssoToken', () => {
      throw new MockError(401, 'No completed single sign-on in this browser.');
    }),
    route(context, 'ssoSecondFactor', () => {
      throw new MockError(401, 'Single sign-on is not available with mock data: sign in with any email and password.');
    }),
    route(context, 'forgotPassword', () => ({
      message: 'If an account exists for that email, a link to reset the password is on its way.',
    })),
    route(context, 'verifyEmail', ({ body }) => {
      required(body, 'token', 'The verification token is missing');
      return { message: 'Your email address is confirmed. You can now sign in.' };
    }),
    route(context, 'resetPassword', ({ body }) => {
      required(body, 'token', 'The reset token is missing');
      checkNewPassword(text(body, 'new_password'), text(body, 'new_password_confirm'));
      return { message: 'Your password has been reset. Sign in with the new one.' };
    }),
    route(
      context,
      'signUp',
      ({ body }) => {
        if (!state.settings.allow_signup) throw new MockError(403, 'Sign-up is turned off.');
        const email = required(body, 'email', 'Email is required').toLowerCase();
        if (state.users.some((user) => user.email === email))
          throw new MockError(409, 'The email is already registered.');
        checkNewPassword(text(body, 'password'));
        ensureCaller(state, email, required(body, 'name', 'Name is required'));
        // The server mails a one-time link; mock data has no mail, so the account simply exists.
        return {
          message: `Check your email at ${email}: open the link we sent to confirm your address, then sign in.`,
          email,
        };
      },
      201,
    ),
    route(context, 'publicSettings', () => ({
      signin_banner: state.settings.signin_banner,
      allow_signup: state.settings.allow_signup,
    })),
  ];
}

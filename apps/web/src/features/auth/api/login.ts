import { effectivePermissions } from '@gatehouse/contracts';
import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import type { SignInMethod } from '../../../lib/reauth';
import { rememberSignInMethod } from '../../../lib/reauth';
import type { StoredUser } from '../../../lib/session';
import { signIn } from '../../../lib/session';
import { ldapLogin } from './ldap-login';

/** Credentials of the sign-in form. */
export interface Credentials {
  email: string;
  password: string;
}

type LoginUser = ResponseOf<Routes['login']>['response']['user'];

/** The user as stored locally after sign-in (spec §3, §4): username is the email. */
export function toStoredUser(user: Omit<LoginUser, 'authentication_token' | 'expires_at'>): StoredUser {
  return {
    email: user.email,
    username: user.email,
    name: user.name,
    roles: user.roles,
    effectivePermissions:
      user.effectivePermissions.length > 0 ? [...user.effectivePermissions] : effectivePermissions(user.roles),
    authType: 'jwt_auth',
  };
}

/** POST api/login?include_auth_token; a 401 here means wrong credentials, not expiry. */
export async function login(credentials: Credentials): Promise<LoginUser> {
  const answer = await apiCall(API.login, {
    body: credentials,
    query: { include_auth_token: '' },
    signOutOn401: false,
  });
  return answer.response.user;
}

/** The form's two ways in: the Gatehouse password (POST api/login) or the directory (POST /ldap/login). */
export type PasswordMethod = Extract<SignInMethod, 'password' | 'ldap'>;

/**
 * Signs in with the password or the directory and stores token, user and how it signed in on
 * success; when a second factor must follow (issue 20), nothing is stored and `onSecondFactor` gets
 * the waiting sign-in instead.
 */
export function useLogin(
  method: PasswordMethod = 'password',
  onSecondFactor: (pending: { token: string; methods: NonNullable<LoginUser['second_factor']> }) => void = () =>
    undefined,
) {
  return useMutation({
    mutationFn: method === 'ldap' ? ldapLogin : login,
    onSuccess: (user) => {
      if (user.second_factor && user.second_factor.length > 0) {
        onSecondFactor({ token: user.authentication_token, methods: user.second_factor });
        return;
      }
      rememberSignInMethod(method);
      signIn(user.authentication_token, toStoredUser(user));
    },
  });
}

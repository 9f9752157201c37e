import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { getToken, signOut } from '../../../lib/session';
import { logout } from './logout';

/**
 * POST api/user/forgot-password. A signed-in caller is signed out first (spec §7.1: logout is
 * also done before a password-reset request). The answer is the same whether or not the account exists.
 */
export async function forgotPassword(email: string) {
  if (getToken()) {
    await logout();
    signOut();
  }
  return apiCall(API.forgotPassword, { body: { email }, signOutOn401: false });
}

/** Asks for a reset link; the answer's message tells where to look. */
export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

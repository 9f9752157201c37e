import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { rememberSignInMethod } from '../../../lib/reauth';
import { signIn } from '../../../lib/session';
import { toStoredUser } from './login';

/** Body of POST api/users (spec §3 sign-up body). */
export type SignUpBody = BodyOf<Routes['signUp']>;

/** POST api/users; on success the new user is signed in exactly as after a login. */
export function useSignUp() {
  return useMutation({
    mutationFn: (body: SignUpBody) => apiCall(API.signUp, { body, signOutOn401: false }),
    onSuccess: (answer) => {
      rememberSignInMethod('password');
      signIn(answer.token, toStoredUser(answer.response.user));
    },
  });
}

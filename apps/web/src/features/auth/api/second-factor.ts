import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { signWithPasskey } from '../../../lib/passkeys';
import { rememberSignInMethod } from '../../../lib/reauth';
import type { SignInMethod } from '../../../lib/reauth';
import { signIn } from '../../../lib/session';
import { toStoredUser } from './login';

type LoginUser = ResponseOf<Routes['login']>['response']['user'];

/** A sign-in whose password was right and whose second factor must follow. */
export interface PendingSignIn {
  /** Good only for the second step, for a few minutes; never stored. */
  token: string;
  methods: NonNullable<LoginUser['second_factor']>;
  /** How the first step signed in (password or directory), remembered for re-authorization. */
  via: Extract<SignInMethod, 'password' | 'ldap'>;
}

/** What the second step sends: a code (app or recovery), or a passkey. */
export type SecondFactorInput = { kind: 'code'; code: string } | { kind: 'passkey' };

const quiet = { signOutOn401: false, reauth: false } as const;

/** POST api/auth/second-factor with the waiting sign-in's token; a passkey first signs the server's challenge. */
async function completeSignIn(pending: PendingSignIn, input: SecondFactorInput): Promise<LoginUser> {
  if (input.kind === 'code') {
    const answer = await apiCall(API.secondFactor, { ...quiet, token: pending.token, body: { code: input.code } });
    return answer.response.user;
  }
  const { challenge_id, options } = await apiCall(API.secondFactorPasskeyOptions, { ...quiet, token: pending.token });
  const credential = await signWithPasskey(options);
  const answer = await apiCall(API.secondFactor, {
    ...quiet,
    token: pending.token,
    body: { passkey: { challenge_id, credential: credential as never } },
  });
  return answer.response.user;
}

/** The second step of a sign-in; on success the session is stored as for any sign-in. */
export function useSecondFactor(pending: PendingSignIn) {
  return useMutation({
    mutationFn: (input: SecondFactorInput) => completeSignIn(pending, input),
    onSuccess: (user) => {
      rememberSignInMethod(pending.via);
      signIn(user.authentication_token, toStoredUser(user));
    },
  });
}

/** Sign-in with a passkey alone: the server's challenge, the browser's signature, then the session. */
async function passkeySignIn(): Promise<LoginUser> {
  const { challenge_id, options } = await apiCall(API.passkeySignInOptions, quiet);
  const credential = await signWithPasskey(options);
  const answer = await apiCall(API.passkeySignIn, {
    ...quiet,
    body: { challenge_id, credential: credential as never },
  });
  return answer.response.user;
}

/** POST api/login/passkey after the browser signed; stores the session. */
export function usePasskeySignIn() {
  return useMutation({
    mutationFn: passkeySignIn,
    onSuccess: (user) => {
      rememberSignInMethod('password');
      signIn(user.authentication_token, toStoredUser(user));
    },
  });
}

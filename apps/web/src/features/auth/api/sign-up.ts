import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** Body of POST api/users (spec §3 sign-up body). */
export type SignUpBody = BodyOf<Routes['signUp']>;

/**
 * POST api/users. The account is created unverified and nobody is signed in: the server mails a
 * one-time link, and the form shows the "check your mail" screen with the server's message.
 */
export function useSignUp() {
  return useMutation({
    mutationFn: (body: SignUpBody) => apiCall(API.signUp, { body, signOutOn401: false }),
  });
}

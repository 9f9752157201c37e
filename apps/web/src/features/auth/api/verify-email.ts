import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** Body of POST api/user/verify-email. */
export type VerifyEmailBody = BodyOf<Routes['verifyEmail']>;

/** POST api/user/verify-email with the mailed link's token; a 400 explains an invalid, used or expired link. */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: (body: VerifyEmailBody) => apiCall(API.verifyEmail, { body, signOutOn401: false }),
  });
}

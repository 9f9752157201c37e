import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** Body of POST api/user/reset-password. */
export type ResetPasswordBody = BodyOf<Routes['resetPassword']>;

/** POST api/user/reset-password with the link's token; a 400 explains an invalid or used link. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => apiCall(API.resetPassword, { body, signOutOn401: false }),
  });
}

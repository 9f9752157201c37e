import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** Body of POST api/user/password. */
export type ChangePasswordBody = BodyOf<Routes['changePassword']>;

/** POST api/user/password; a 400 answers `errors`, shown one by one. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiCall(API.changePassword, { body }),
  });
}

import { routes } from '@gatehouse/contracts';
import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Body of POST api/user/password. */
export type ChangePasswordBody = BodyOf<Routes['changePassword']>;

/** POST api/user/password; a 400 answers `errors`, shown one by one. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiCall(routes.changePassword, { body }),
  });
}

import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateUsers } from './invalidate';

/** Body of POST api/user. */
export type CreateUserBody = BodyOf<Routes['createUser']>;

/** POST api/user; a 409 means the email is taken. */
export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: CreateUserBody) => apiCall(API.createUser, { body }),
    onSuccess: invalidate,
  });
}

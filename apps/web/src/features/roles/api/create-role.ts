import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateRoles } from './role-keys';

/** Body of POST api/role: a name and the permissions as a list. */
export type CreateRoleBody = BodyOf<Routes['createRole']>;

/** POST api/role; 409 when the name is taken, 403 when granting a permission the caller lacks. */
export function useCreateRole() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: (body: CreateRoleBody) => apiCall(API.createRole, { body }),
    onSuccess: invalidate,
  });
}

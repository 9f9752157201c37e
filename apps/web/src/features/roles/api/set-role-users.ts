import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateRoles } from './role-keys';

/** Who gets the role: its name and the users' emails. */
export interface RoleUsersChange {
  role: string;
  users: string[];
}

/** PUT api/role/{name}/users; 409 when every user named holds the role already. */
export function useSetRoleUsers() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: ({ role, users }: RoleUsersChange) =>
      apiCall(API.setRoleUsers, { params: { name: role }, body: { users } }),
    onSuccess: invalidate,
  });
}

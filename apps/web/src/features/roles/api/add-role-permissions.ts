import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateRoles } from './role-keys';

/** What to add: the role and the permissions. */
export interface RolePermissionsChange {
  role: string;
  permissions: readonly string[];
}

/** PUT api/role/{name}/permissions with the permissions comma-joined (spec §7.5). */
export function useAddRolePermissions() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: ({ role, permissions }: RolePermissionsChange) =>
      apiCall(API.addRolePermissions, { params: { name: role }, body: { permissions: permissions.join(',') } }),
    onSuccess: invalidate,
  });
}

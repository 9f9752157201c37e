import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import type { RolePermissionsChange } from './add-role-permissions';
import { commaJoined } from './add-role-permissions';
import { useInvalidateRoles } from './role-keys';

/** DELETE api/role/{name}/permissions with the permissions comma-joined (spec §7.5). */
export function useRemoveRolePermissions() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: ({ role, permissions }: RolePermissionsChange) =>
      apiCall(API.removeRolePermissions, { params: { name: role }, body: { permissions: commaJoined(permissions) } }),
    onSuccess: invalidate,
  });
}

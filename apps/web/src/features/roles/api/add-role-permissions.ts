import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateRoles } from './role-keys';

/** What to add or remove: the role and the permissions. */
export interface RolePermissionsChange {
  role: string;
  permissions: readonly string[];
}

type PermissionsField = BodyOf<Routes['addRolePermissions']>['permissions'];

/** The permissions comma-joined, as the spec sends them (§7.5). */
export function commaJoined(permissions: readonly string[]): PermissionsField {
  return permissions.join(',');
}

/** PUT api/role/{name}/permissions with the permissions comma-joined. */
export function useAddRolePermissions() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: ({ role, permissions }: RolePermissionsChange) =>
      apiCall(API.addRolePermissions, { params: { name: role }, body: { permissions: commaJoined(permissions) } }),
    onSuccess: invalidate,
  });
}

import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateRoles } from './role-keys';

/** DELETE api/role/{name}; built-in roles are refused with 409. */
export function useDeleteRole() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: (name: string) => apiCall(API.deleteRole, { params: { name } }),
    onSuccess: invalidate,
  });
}

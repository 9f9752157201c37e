import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateRoles } from './role-keys';

/** Whose role to take: the user's email and the role's name. */
export interface RoleHolderRemoval {
  email: string;
  role: string;
}

/** DELETE api/user/{email}/role/{role}: takes the role from one holder. */
export function useRemoveUserRole() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: ({ email, role }: RoleHolderRemoval) => apiCall(API.removeUserRole, { params: { email, role } }),
    onSuccess: invalidate,
  });
}

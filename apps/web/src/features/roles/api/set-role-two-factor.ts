import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateRoles } from './role-keys';

/** PUT api/role/{name}/two-factor: whether the role's holders must set up a second factor (issue 20). */
export function useSetRoleTwoFactor() {
  const invalidate = useInvalidateRoles();
  return useMutation({
    mutationFn: ({ role, required }: { role: string; required: boolean }) =>
      apiCall(API.setRoleTwoFactor, { params: { name: role }, body: { required } }),
    onSuccess: invalidate,
  });
}

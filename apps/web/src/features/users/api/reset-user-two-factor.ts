import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateUsers } from './invalidate';

/** DELETE api/user/{email}/two-factor: removes the user's second factors and ends their sessions. */
export function useResetUserTwoFactor() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (email: string) => apiCall(API.resetUserTwoFactor, { params: { email } }),
    onSuccess: invalidate,
  });
}

import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** POST api/user/{email}/reset-password: mails the user a single-use link; answers a message. */
export function useResetUserPassword() {
  return useMutation({
    mutationFn: (email: string) => apiCall(API.resetUserPassword, { params: { email } }),
  });
}

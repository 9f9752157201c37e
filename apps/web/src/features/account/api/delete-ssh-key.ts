import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SSH_KEYS_KEY } from './list-ssh-keys';

/** DELETE api/user/me/ssh-keys/{id}. */
export function useDeleteSshKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(API.deleteSshKey, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: SSH_KEYS_KEY }),
  });
}

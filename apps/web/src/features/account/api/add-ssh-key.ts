import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SSH_KEYS_KEY } from './list-ssh-keys';

/** Body of POST api/user/me/ssh-keys: a name and one OpenSSH public key line. */
export type AddSshKeyBody = BodyOf<Routes['addSshKey']>;

/** POST api/user/me/ssh-keys; a 400 explains what is wrong with the key (such as a weak RSA key). */
export function useAddSshKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AddSshKeyBody) => apiCall(API.addSshKey, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: SSH_KEYS_KEY }),
  });
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { ACCOUNT_KEY } from './me';

/** One registered SSH public key. */
export type SshKey = ResponseOf<Routes['listSshKeys']>['keys'][number];

/** The key of the SSH key list, refreshed after adding or deleting one. */
export const SSH_KEYS_KEY = [...ACCOUNT_KEY, 'ssh-keys'] as const;

/** GET api/user/me/ssh-keys: the caller's keys for the gateway. */
export function useSshKeys() {
  return useQuery({
    queryKey: SSH_KEYS_KEY,
    queryFn: ({ signal }) => apiCall(API.listSshKeys, { signal }),
  });
}

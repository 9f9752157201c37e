import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { ACCOUNT_KEY } from './me';

/** The caller's own access: entries with commands, the gateway's address, whom to ask. */
export type MyAccess = ResponseOf<Routes['myAccess']>;
/** One host and definition the caller reaches. */
export type AccessEntry = MyAccess['entries'][number];

/** GET api/me/access: what the signed-in user reaches and how to connect (the server's policy decides). */
export function useMyAccess() {
  return useQuery({
    queryKey: [...ACCOUNT_KEY, 'access'],
    queryFn: ({ signal }) => apiCall(API.myAccess, { signal }),
  });
}

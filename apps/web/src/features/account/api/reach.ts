import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { ACCOUNT_KEY } from './me';

/** Groups and agents a user reaches, with the groups each agent is reached through. */
export type Reach = ResponseOf<Routes['userReach']>;

/** GET api/user/{email}/reach for the signed-in user. */
export function useReach(email: string | undefined) {
  return useQuery({
    queryKey: [...ACCOUNT_KEY, 'reach', email],
    queryFn: ({ signal }) => apiCall(API.userReach, { params: { email: email ?? '' }, signal }),
    enabled: email !== undefined,
  });
}

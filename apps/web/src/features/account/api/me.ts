import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** Every account query starts with this key. */
export const ACCOUNT_KEY = ['account'] as const;

/** GET api/user/me: the caller's email, name and roles as of now. */
export function useAccountMe() {
  return useQuery({
    queryKey: [...ACCOUNT_KEY, 'me'],
    queryFn: ({ signal }) => apiCall(API.me, { signal }),
  });
}

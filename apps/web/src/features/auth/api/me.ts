import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { updateUser } from '../../../lib/session';
import { useSession } from '../../../lib/use-session';

/** GET api/user/me, cached under ['auth', 'me']. */
export const meQuery = queryOptions({
  queryKey: ['auth', 'me'],
  queryFn: () => apiCall(API.me),
  staleTime: 60_000,
});

/** Refreshes the stored user's name, roles and permissions on load, so role changes show. */
export function useRefreshStoredUser(): void {
  const { token } = useSession();
  const { data } = useQuery({ ...meQuery, enabled: token !== null });
  useEffect(() => {
    if (!data) return;
    const { email, name, roles, effectivePermissions } = data.user;
    updateUser({ email, username: email, name, roles, effectivePermissions: [...effectivePermissions] });
  }, [data]);
}

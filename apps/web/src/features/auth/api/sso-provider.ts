import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** The configured sign-in provider: 1 password, 2 SAML, 3 OIDC, 4 LDAP. */
export type AuthType = ResponseOf<Routes['ssoProvider']>['auth_type'];

/** GET /sso (at the root, not under api/). While it runs the sign-in screen shows 'detecting'. */
export function useSsoProvider() {
  return useQuery({
    queryKey: ['auth', 'sso-provider'],
    queryFn: () => apiCall(API.ssoProvider, { signOutOn401: false }),
    retry: false,
    staleTime: 5 * 60_000,
  });
}

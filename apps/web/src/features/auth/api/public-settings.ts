import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** GET api/settings/public: the sign-in banner and whether sign-up is open, before anyone signs in. */
export function usePublicSettings() {
  return useQuery({
    queryKey: ['auth', 'public-settings'],
    queryFn: ({ signal }) => apiCall(API.publicSettings, { signOutOn401: false, signal }),
    staleTime: 60_000,
  });
}

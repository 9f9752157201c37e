import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useSession } from '../../../lib/use-session';

/** GET api/metadata: version, build number and build tag, for the footer and sidebar. */
export function useMetadata() {
  const { token } = useSession();
  return useQuery({
    queryKey: ['system', 'metadata'],
    queryFn: () => apiCall(API.metadata),
    enabled: token !== null,
    staleTime: Infinity,
  });
}

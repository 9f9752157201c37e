import { routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

/** GET api/metadata: version, build number and build tag, for the footer and sidebar. */
export function useMetadata() {
  const { token } = useSession();
  return useQuery({
    queryKey: ['system', 'metadata'],
    queryFn: () => apiCall(routes.metadata),
    enabled: token !== null,
    staleTime: Infinity,
  });
}

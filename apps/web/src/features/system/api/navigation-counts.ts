import { VIEW_REFRESH_MS } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { useSession } from '../../../lib/use-session';

/** GET api/navigation/counts, refetched on the 120 s view refresh timer (spec §9). */
export function useNavigationCounts() {
  const { token } = useSession();
  return useQuery({
    queryKey: QUERY_KEYS.navigationCounts,
    queryFn: () => apiCall(API.navigationCounts),
    enabled: token !== null,
    refetchInterval: VIEW_REFRESH_MS,
    staleTime: VIEW_REFRESH_MS / 2,
  });
}

import { VIEW_REFRESH_MS, routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

/** GET api/navigation/counts, refetched on the 120 s view refresh timer (spec §9). */
export function useNavigationCounts() {
  const { token } = useSession();
  return useQuery({
    queryKey: ['system', 'navigation-counts'],
    queryFn: () => apiCall(routes.navigationCounts),
    enabled: token !== null,
    refetchInterval: VIEW_REFRESH_MS,
    staleTime: VIEW_REFRESH_MS / 2,
  });
}

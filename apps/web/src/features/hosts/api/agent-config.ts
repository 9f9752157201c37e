import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import type { ConfigBody } from '../config/config-form';
import { HOST_KEYS, useInvalidateHosts } from './host-keys';

/** GET api/agent/{id}/config, read afresh each time the dialog opens. */
export function useAgentConfig(id: string | null) {
  return useQuery({
    queryKey: HOST_KEYS.config(id ?? ''),
    queryFn: ({ signal }) => apiCall(API.getAgentConfig, { params: { id: id ?? '' }, signal }),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** POST api/agent/{id}/config; the answer's `applied` says whether the connected agent got it. */
export function useSaveAgentConfig(id: string) {
  const client = useQueryClient();
  const invalidate = useInvalidateHosts();
  return useMutation({
    mutationFn: (body: ConfigBody) => apiCall(API.saveAgentConfig, { params: { id }, body }),
    onSuccess: async (answer) => {
      client.setQueryData(HOST_KEYS.config(id), answer);
      await invalidate();
    },
  });
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KeyLimits } from '../../../components/key-limits/key-limits';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { HOST_KEYS } from './host-keys';

/** A registration key as listed: never its secret. */
export type RegistrationKey = ResponseOf<Routes['listApiKeys']>['keys'][number];

/** GET api/apikey (admin role only); `enabled` is false for anyone the server would refuse. */
export function useRegistrationKeys(enabled: boolean) {
  return useQuery({
    queryKey: HOST_KEYS.registrationKeys,
    queryFn: ({ signal }) => apiCall(API.listApiKeys, { signal }),
    enabled,
  });
}

/** POST api/apikey {description, expires_in_hours, uses}: the answer carries the secret `key`, this once. */
export function useGenerateRegistrationKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ description, limits }: { description: string; limits: KeyLimits }) =>
      apiCall(API.createApiKey, { body: { description, ...limits } }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: QUERY_KEYS.registrationKeys }),
        client.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts }),
      ]);
    },
  });
}

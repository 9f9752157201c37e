import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useSession } from '../../../lib/use-session';
import { SETTINGS_KEYS } from './settings-keys';

/** The installed licence (spec §3 Licence). */
export type License = ResponseOf<Routes['getLicense']>;

/** GET api/license: every signed-in user may read it (the licence notice needs it). */
export const licenseQuery = queryOptions({
  queryKey: SETTINGS_KEYS.license,
  queryFn: ({ signal }) => apiCall(API.getLicense, { signal }),
  staleTime: 5 * 60_000,
});

/** The licence while signed in. */
export function useLicense() {
  const { token } = useSession();
  return useQuery({ ...licenseQuery, enabled: token !== null });
}

/** POST api/license: installs a pasted licence; the answer replaces the cached one. */
export function useSaveLicense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (license: string) => apiCall(API.saveLicense, { body: { license } }),
    onSuccess: (answer) => client.setQueryData(SETTINGS_KEYS.license, answer.license),
  });
}

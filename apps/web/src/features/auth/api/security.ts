import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { STORAGE_KEYS, readJson, writeJson } from '../../../lib/storage';
import { useSession } from '../../../lib/use-session';

/** Security settings (spec §3). */
export type SecuritySettings = ResponseOf<Routes['security']>;

/** GET api/security; the answer is also saved locally (spec §7.2). */
export const securityQuery = queryOptions({
  queryKey: QUERY_KEYS.security,
  queryFn: async () => {
    const settings = await apiCall(API.security);
    writeJson(STORAGE_KEYS.securitySettings, settings);
    return settings;
  },
  staleTime: 5 * 60_000,
});

/** The security settings while signed in; the saved copy shows until the call answers. */
export function useSecuritySettings() {
  const { token } = useSession();
  return useQuery({
    ...securityQuery,
    enabled: token !== null,
    placeholderData: () => readJson<SecuritySettings>(STORAGE_KEYS.securitySettings) ?? undefined,
  });
}

import type { BodyOf, ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { STORAGE_KEYS, writeJson } from '../../../lib/storage';

/** Security settings (spec §3). */
export type SecuritySettings = ResponseOf<Routes['security']>;

/** What saving security settings sends. */
export type SecurityBody = BodyOf<Routes['saveSecurity']>;

/** GET api/security, fresh for the editor (shares the cache entry the header indicators read). */
export function useSecuritySettingsForEdit() {
  return useQuery({
    queryKey: QUERY_KEYS.security,
    queryFn: async ({ signal }) => {
      const settings = await apiCall(API.security, { signal });
      writeJson(STORAGE_KEYS.securitySettings, settings);
      return settings;
    },
    staleTime: 0,
  });
}

/**
 * POST api/security. It needs fresh authentication: the API client opens the Authorize dialog
 * when the server asks. The saved settings are stored at once (spec §7.2: they reload after a
 * save), so the header indicators and the single-use listing follow without a reload.
 */
export function useSaveSecurity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SecurityBody) => apiCall(API.saveSecurity, { body }),
    onSuccess: async ({ security }) => {
      writeJson(STORAGE_KEYS.securitySettings, security);
      client.setQueryData(QUERY_KEYS.security, security);
      await client.invalidateQueries({ queryKey: QUERY_KEYS.security });
    },
  });
}

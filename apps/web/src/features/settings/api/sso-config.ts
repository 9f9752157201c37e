import type { BodyOf, ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** The sign-in configuration as the server answers it (spec §3 Auth config): secrets only as *_set. */
export type AuthConfig = ResponseOf<Routes['getSsoConfig']>;

/** What saving sends: only the fields sent change; an empty or absent secret keeps the stored one. */
export type SsoConfigBody = BodyOf<Routes['saveSsoConfig']>;

/** What a directory test sends: these values over the stored ones. */
export type LdapTestBody = BodyOf<Routes['testLdap']>;

/** A connection test's answer: whether it worked, and the server's words. */
export interface ConnectionTestResult {
  ok: boolean;
  message: string;
}

/** Query key of the sign-in configuration. */
export const SSO_CONFIG_KEY = ['settings', 'sso-config'] as const;

/** GET /sso/config (manage-sso-config). */
export function useSsoConfig() {
  return useQuery({
    queryKey: SSO_CONFIG_KEY,
    queryFn: ({ signal }) => apiCall(API.getSsoConfig, { signal }),
  });
}

/**
 * POST /sso/config. It needs fresh authentication: the API client opens the Authorize dialog when
 * the server asks and sends the save again. The answered configuration replaces the cached one.
 */
export function useSaveSsoConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConfigBody) => apiCall(API.saveSsoConfig, { body }),
    onSuccess: ({ config }) => client.setQueryData(SSO_CONFIG_KEY, config),
  });
}

/** POST /sso/config/test-ldap: connect, bind as the service account and search, with the values sent. */
export function useTestLdap() {
  return useMutation({
    mutationFn: (body: LdapTestBody): Promise<ConnectionTestResult> => apiCall(API.testLdap, { body }),
  });
}

/** POST /sso/config/test-oidc: read the provider's discovery document (at the given well-known URL, else the stored one). */
export function useTestOidc() {
  return useMutation({
    mutationFn: (wellKnownUrl: string | undefined): Promise<ConnectionTestResult> =>
      apiCall(API.testOidc, { body: wellKnownUrl ? { well_known_url: wellKnownUrl } : {} }),
  });
}

import { effectivePermissions } from '@gatehouse/contracts';
import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import type { StoredUser } from '../../../lib/session';

/**
 * What GET /sso/token answers: why the flow ran, the kind of token, and the user with it; or, for a
 * re-authorization of someone with a second factor, the step that proves it (issue 20).
 */
export type SsoTokenAnswer = ResponseOf<Routes['ssoToken']>;
type SignedInUser = Extract<SsoTokenAnswer, { response: unknown }>['response']['user'];

/**
 * GET /sso/token (spec §4 single sign-on token fetch). The server answers a completed sign-on only
 * once (its cookie is used up), so the answer is cached for the page's life: a re-render, strict
 * mode's second effect or a remount (the layout changes on sign-in) never asks again. A 401 here
 * means no completed flow, never an expired session, so it signs nobody out.
 */
export function useSsoToken(enabled: boolean) {
  return useQuery({
    queryKey: ['sso', 'token'],
    queryFn: () => apiCall(API.ssoToken, { signOutOn401: false, reauth: false }),
    enabled,
    retry: false,
    retryOnMount: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** The user as the console stores it after a single sign-on, as after a password sign-in (spec §3, §4). */
export function storedUserOf(user: SignedInUser): StoredUser {
  return {
    email: user.email,
    username: user.email,
    name: user.name,
    roles: user.roles,
    effectivePermissions:
      user.effectivePermissions.length > 0 ? [...user.effectivePermissions] : effectivePermissions(user.roles),
    authType: 'jwt_auth',
  };
}

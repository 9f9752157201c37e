import type { BodyOf, ResponseOf, Routes } from '@gatehouse/contracts';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/**
 * POST /ldap/login?include_auth_token (spec §4, §7.1: the LDAP provider uses the LDAP login path):
 * the directory checks the password; the answer has the login's shape. A 401 means wrong credentials.
 */
export async function ldapLogin(
  credentials: BodyOf<Routes['ldapLogin']>,
): Promise<ResponseOf<Routes['ldapLogin']>['response']['user']> {
  const answer = await apiCall(API.ldapLogin, {
    body: credentials,
    query: { include_auth_token: '' },
    signOutOn401: false,
    reauth: false,
  });
  return answer.response.user;
}

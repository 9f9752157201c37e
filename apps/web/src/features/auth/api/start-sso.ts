import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/**
 * POST /sso/start {purpose: 'signin'}, then the browser goes to the identity provider. The server
 * binds the flow to this browser with a cookie and sends it back to /#/sso when it is done.
 */
export function useStartSsoSignIn() {
  return useMutation({
    mutationFn: () => apiCall(API.startSso, { body: { purpose: 'signin' }, signOutOn401: false, reauth: false }),
    onSuccess: ({ redirect_url }) => window.location.assign(redirect_url),
  });
}

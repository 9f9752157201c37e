import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/**
 * POST /sso/start {purpose: 'authorize'} with the stored token (the popup shares the console's
 * storage), then the popup goes to the identity provider. Never prompts for authorization itself:
 * that would open a popup from the popup.
 */
export function useStartSsoAuthorize() {
  return useMutation({
    mutationFn: () => apiCall(API.startSso, { body: { purpose: 'authorize' }, signOutOn401: false, reauth: false }),
    onSuccess: ({ redirect_url }) => window.location.assign(redirect_url),
  });
}

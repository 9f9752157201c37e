import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateKeys } from './key-keys';

/** DELETE api/apikey/{uuid}: agents can no longer register with the key. */
export function useDeleteKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({
    mutationFn: (uuid: string) => apiCall(API.deleteApiKey, { params: { uuid } }),
    onSuccess: invalidate,
  });
}

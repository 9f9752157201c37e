import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SETTINGS_KEYS } from './settings-keys';

/** The key that signs recordings: fingerprint, where it is kept, the keys used before. */
export type SigningKey = ResponseOf<Routes['getSigningKey']>;

/** GET api/signing-key (list-recording or manage-settings). */
export function useSigningKey() {
  return useQuery({
    queryKey: SETTINGS_KEYS.signingKey,
    queryFn: ({ signal }) => apiCall(API.getSigningKey, { signal }),
  });
}

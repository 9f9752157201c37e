import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import type { KeyLimits } from '../../../components/key-limits/key-limits';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateKeys } from './key-keys';

/** The answer to generating a key: the key's fields and, this once, its secret `key`. */
export type GeneratedKey = ResponseOf<Routes['createApiKey']>;

/** What a new key is for, how long it works and how many agents it may enrol (ADR 0006: no permissions). */
export interface NewKey {
  description: string;
  limits: KeyLimits;
}

/**
 * POST api/apikey. The secret is in the answer only; it is never written to the query cache,
 * so closing the dialog that shows it loses it for good.
 */
export function useCreateKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({
    mutationFn: ({ description, limits }: NewKey) => apiCall(API.createApiKey, { body: { description, ...limits } }),
    onSuccess: invalidate,
  });
}

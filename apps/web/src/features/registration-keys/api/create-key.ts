import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { isPermission } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateKeys } from './key-keys';

/** The answer to generating a key: the key's fields and, this once, its secret `key`. */
export type GeneratedKey = ResponseOf<Routes['createApiKey']>;

/** What a new key is for, and optionally which permissions it carries. */
export interface NewKey {
  description: string;
  permissions: string[];
}

/**
 * POST api/apikey. The secret is in the answer only; it is never written to the query cache,
 * so closing the dialog that shows it loses it for good.
 */
export function useCreateKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({
    mutationFn: ({ description, permissions }: NewKey) =>
      apiCall(API.createApiKey, {
        body: {
          description,
          ...(permissions.length > 0 ? { permissions: permissions.filter(isPermission) } : {}),
        },
      }),
    onSuccess: invalidate,
  });
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SETTINGS_KEYS } from './settings-keys';

/** One message of the outbox with its text. */
export type OutboxMessage = ResponseOf<Routes['getOutboxMessage']>;

/**
 * GET api/mail/outbox/{id} while a message is open (null: none). The text may hold a reset link,
 * so it leaves the cache as soon as nobody shows it (gcTime 0).
 */
export function useOutboxMessage(id: string | null) {
  return useQuery({
    queryKey: SETTINGS_KEYS.outboxMessage(id ?? ''),
    queryFn: ({ signal }) => apiCall(API.getOutboxMessage, { params: { id: id ?? '' }, signal }),
    enabled: id !== null,
    gcTime: 0,
  });
}

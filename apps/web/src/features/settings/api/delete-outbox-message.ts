import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SETTINGS_KEYS } from './settings-keys';

/** DELETE api/mail/outbox/{id}; the list is loaded again and the message's text dropped from the cache. */
export function useDeleteOutboxMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(API.deleteOutboxMessage, { params: { id } }),
    onSuccess: async (_answer, id) => {
      client.removeQueries({ queryKey: SETTINGS_KEYS.outboxMessage(id) });
      await client.invalidateQueries({ queryKey: SETTINGS_KEYS.outboxList });
    },
  });
}

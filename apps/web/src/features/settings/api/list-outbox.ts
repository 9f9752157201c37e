import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SETTINGS_KEYS } from './settings-keys';

/** The outbox as listed: whether SMTP is set, how many messages there are, the newest without their text. */
export type Outbox = ResponseOf<Routes['listOutbox']>;
/** One listed message: sender, recipient, subject, when. */
export type OutboxEntry = Outbox['messages'][number];

/** The most the server lists at once: the screen shows the newest this many and says how many there are. */
export const OUTBOX_PAGE = 200;

/** GET api/mail/outbox (admin role only), newest first. */
export const outboxQuery = queryOptions({
  queryKey: SETTINGS_KEYS.outboxList,
  queryFn: ({ signal }) => apiCall(API.listOutbox, { query: { limit: String(OUTBOX_PAGE) }, signal }),
});

/** The outbox; `enabled` is false for users the server would refuse. */
export function useOutbox(enabled: boolean) {
  return useQuery({ ...outboxQuery, enabled });
}

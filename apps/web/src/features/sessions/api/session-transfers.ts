import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { REFRESH_MS, SESSION_KEYS } from './session-keys';

/** A session's file operations (sftp and scp), in time order. */
export type SessionTransfers = ResponseOf<Routes['listRecordingTransfers']>;
/** One file operation. */
export type SessionTransfer = SessionTransfers['transfers'][number];

/** GET api/recording/{id}/transfers for the selected session; nothing while none is selected. */
export function useSessionTransfers(id: string | null, refresh: boolean) {
  return useQuery({
    queryKey: SESSION_KEYS.transfers(id ?? ''),
    queryFn: ({ signal }) => apiCall(API.listRecordingTransfers, { params: { id: id ?? '' }, signal }),
    enabled: id !== null,
    refetchInterval: refresh ? REFRESH_MS : false,
  });
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { PLAYER_API, PLAYER_KEYS } from './player-routes';

/** One file operation of the recording (sftp or scp), at `t` seconds from its start. */
export type RecordingTransfer = ResponseOf<Routes['listRecordingTransfers']>['transfers'][number];

/** GET api/recording/{id}/transfers: the marks of the timeline and the list beside it. */
export function useRecordingTransfers(id: string) {
  return useQuery({
    queryKey: PLAYER_KEYS.transfers(id),
    queryFn: ({ signal }) => apiCall(PLAYER_API.listRecordingTransfers, { params: { id }, signal }),
  });
}

import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { PLAYER_API, PLAYER_KEYS } from './player-routes';

/** One session in detail (GET /api/recording/{id}/data). */
export type RecordingDetail = ResponseOf<Routes['getRecordingDetail']>;

/** The session's detail; refreshed every few seconds while it is live, so the page sees it end. */
export function useRecordingDetail(id: string) {
  return useQuery({
    queryKey: PLAYER_KEYS.detail(id),
    queryFn: ({ signal }) => apiCall(PLAYER_API.getRecordingDetail, { params: { id }, signal }),
    refetchInterval: (query) => (query.state.data && query.state.data.ended_on === null ? 5000 : false),
  });
}

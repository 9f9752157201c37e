import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { PLAYER_API, PLAYER_KEYS } from './player-routes';

/** One place the text appears. */
export type SearchHit = ResponseOf<Routes['searchRecording']>['hits'][number];

/** Where `q` appears in the session's output (case-insensitive); idle while q is empty. */
export function useRecordingSearch(id: string, q: string) {
  return useQuery({
    queryKey: PLAYER_KEYS.search(id, q),
    queryFn: ({ signal }) => apiCall(PLAYER_API.searchRecording, { params: { id }, query: { q }, signal }),
    enabled: q.length > 0,
    staleTime: 30_000,
  });
}

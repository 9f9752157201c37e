import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { PLAYER_API, PLAYER_KEYS } from './player-routes';

/** The verdict of GET /api/recording/{id}/verify. */
export type RecordingIntegrity = ResponseOf<Routes['verifyRecording']>;

/** Checks the recording against its hash chain and signed manifest. */
export function useIntegrity(id: string) {
  return useQuery({
    queryKey: PLAYER_KEYS.integrity(id),
    queryFn: ({ signal }) => apiCall(PLAYER_API.verifyRecording, { params: { id }, signal }),
    staleTime: 60_000,
  });
}

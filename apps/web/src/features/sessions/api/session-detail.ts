import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { REFRESH_MS, SESSION_KEYS } from './session-keys';

/** Everything known of one session. */
export type SessionDetail = ResponseOf<Routes['getRecordingDetail']>;

/** GET api/recording/{id}/data for the selected session; nothing while none is selected. */
export function useSessionDetail(id: string | null, refresh: boolean) {
  return useQuery({
    queryKey: SESSION_KEYS.detail(id ?? ''),
    queryFn: ({ signal }) => apiCall(API.getRecordingDetail, { params: { id: id ?? '' }, signal }),
    enabled: id !== null,
    refetchInterval: refresh ? REFRESH_MS : false,
  });
}
